//===--- ClassesByUse.cpp - What unannotated names are, by their use -----===//
//
// docs/python.md, "Values whose type is not written".
//
//===----------------------------------------------------------------------===//

#include "lib/python/ClassesByUse.h"
#include "lib/python/Api.h"
#include "llvm/ADT/StringSet.h"

namespace streamsafe::py {

/// Whether \p Method of a value says it is a tensor: a method only tensors
/// have (record_stream, copy_, data_ptr) or an in-place tensor op (`add_`;
/// not requires_grad_, which modules have too).
static bool tensorOnlyMethod(llvm::StringRef Method) {
  if (Method == "requires_grad_" || !Method.ends_with("_")) {
    ApiEffect E = tensorMethod(Method);
    return E == ApiEffect::TensorRecordStream || Method == "data_ptr";
  }
  ApiEffect E = tensorMethod(Method);
  return E == ApiEffect::TensorInPlace || E == ApiEffect::TensorCopyFrom;
}

/// Whether \p Method of a value says it is a stream: the stream's own waits
/// and records (wait_stream, wait_event, record_event); an event has
/// record() and wait() of its own, and synchronize() is both's.
static bool streamOnlyMethod(llvm::StringRef Method) {
  ApiEffect E = streamMethodEffect(Method);
  return E == ApiEffect::StreamWaitEvent || E == ApiEffect::EventRecord;
}

llvm::StringMap<VarClass> classesByUse(TSNode Def, const SourceFile &F,
                                       const Imports &I) {
  llvm::StringSet<> Used, Streams, Rebound;
  // Names bound by exactly one plain assignment, of a call.
  llvm::StringMap<unsigned> Assignments;
  llvm::StringSet<> FromCall;
  ownCode(field(Def, "body"), [&](TSNode X) {
    if (is(X, "assignment") || is(X, "augmented_assignment")) {
      TSNode L = unparen(field(X, "left"));
      if (!is(L, "identifier"))
        return;
      ++Assignments[F.text(L)];
      TSNode R = field(X, "right");
      if (is(X, "assignment") && !ts_node_is_null(R) && is(unparen(R), "call"))
        FromCall.insert(F.text(L));
      return;
    }
    if (!is(X, "call"))
      return;
    TSNode Fn = field(X, "function");
    TSNode Of = unparen(field(Fn, "object"));
    llvm::StringRef Method =
        is(Fn, "attribute") ? F.text(field(Fn, "attribute")) : "";
    if (is(Of, "identifier") && tensorOnlyMethod(Method))
      Used.insert(F.text(Of));
    if (is(Of, "identifier") && streamOnlyMethod(Method))
      Streams.insert(F.text(Of));
    // torch.cuda.stream(s): s is a stream. (x.record_stream(p) is not
    // enough: p might be any stream, and a record on a stream that may be
    // the one in use covers it.)
    bool TakesStream =
        !ts_node_is_null(Fn) && apiOf(I.qualify(Fn)) == PyApi::StreamContext;
    std::vector<TSNode> Args = children(field(X, "arguments"));
    if (TakesStream && Args.size() == 1 && is(unparen(Args[0]), "identifier"))
      Streams.insert(F.text(unparen(Args[0])));
    // a.wait_stream(b): b is a stream too.
    if (waitsForStream(Method) && Args.size() == 1 &&
        is(unparen(Args[0]), "identifier"))
      Streams.insert(F.text(unparen(Args[0])));
  });
  for (const auto &A : Assignments)
    if (A.second > 1 || !FromCall.contains(A.getKey()))
      Rebound.insert(A.getKey());
  for (const auto &R : Rebound) {
    Used.erase(R.getKey());
    Streams.erase(R.getKey());
  }
  // A method's self is its class's object, whatever methods it has.
  TSNode Up = ts_node_parent(Def);
  if (is(Up, "decorated_definition"))
    Up = ts_node_parent(Up);
  if (is(Up, "block") && is(ts_node_parent(Up), "class_definition"))
    for (TSNode P : children(field(Def, "parameters"))) {
      if (is(P, "identifier")) {
        Used.erase(F.text(P));
        Streams.erase(F.text(P));
      }
      break;
    }
  llvm::StringMap<VarClass> Out;
  for (const auto &U : Used)
    if (!Streams.contains(U.getKey()))
      Out[U.getKey()] = VarClass::Tensor;
  for (const auto &U : Streams)
    if (!Used.contains(U.getKey()))
      Out[U.getKey()] = VarClass::Stream;
  return Out;
}

} // namespace streamsafe::py
