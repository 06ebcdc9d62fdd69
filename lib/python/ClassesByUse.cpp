//===--- ClassesByUse.cpp - What unannotated names are, by their use -----===//
//
// docs/python.md, "Values whose type is not written".
//
//===----------------------------------------------------------------------===//

#include "lib/python/ClassesByUse.h"
#include "lib/model/UseEvidence.h"
#include "lib/python/Api.h"
#include "lib/python/Collectives.h"
#include "lib/python/StreamContexts.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSet.h"

namespace streamsafe::py {

/// Whether \p Method of a value says it is a stream: the stream's own waits
/// and records (wait_stream, wait_event, record_event); an event has
/// record() and wait() of its own, and synchronize() is both's.
static bool streamOnlyMethod(llvm::StringRef Method) {
  ApiEffect E = streamMethodEffect(Method);
  return E == ApiEffect::StreamWaitEvent || E == ApiEffect::EventRecord;
}

bool callProvesTensor(TSNode Call, llvm::StringRef Method,
                      const SourceFile &F) {
  if (pyMethodProvesTensor(Method))
    return true;
  for (TSNode A : children(field(Call, "arguments")))
    if (is(A, "keyword_argument") &&
        pyKeywordProvesTensor(Method, F.text(field(A, "name"))))
      return true;
  return false;
}

std::string useKey(TSNode N, const SourceFile &F) {
  N = unparen(N);
  if (is(N, "identifier"))
    return F.text(N).str();
  // `x.data.copy_(y)`: a view is the same tensor as its base.
  if (is(N, "attribute") && isViewAttribute(F.text(field(N, "attribute"))))
    return useKey(field(N, "object"), F);
  TSNode O = unparen(field(N, "object"));
  if (is(N, "attribute") && is(O, "identifier"))
    return F.text(O).str() + "." + F.text(field(N, "attribute")).str();
  return "";
}

llvm::StringMap<VarClass> classesByUse(TSNode Def, const SourceFile &F,
                                       const Imports &I) {
  llvm::StringSet<> Used, Streams;
  auto Operand = [&](TSNode Arg, llvm::StringSet<> &Into) {
    Arg = unparen(Arg);
    if (is(Arg, "keyword_argument"))
      Arg = unparen(field(Arg, "value"));
    if (std::string K = useKey(Arg, F); !K.empty())
      Into.insert(K);
  };
  // The names bound once to a list or tuple literal.
  llvm::StringMap<TSNode> Lists;
  llvm::StringSet<> Rebound;
  ownCode(field(Def, "body"), [&](TSNode X) {
    if (!is(X, "assignment"))
      return;
    TSNode L = unparen(field(X, "left")), R = unparen(field(X, "right"));
    if (!is(L, "identifier"))
      return;
    if ((is(R, "list") || is(R, "tuple")) && !Rebound.contains(F.text(L)) &&
        Lists.try_emplace(F.text(L), R).second)
      return;
    Rebound.insert(F.text(L));
    Lists.erase(F.text(L));
  });
  // The function of each call seen (a call is visited before its parts).
  llvm::DenseSet<const void *> Callees;
  ownCode(field(Def, "body"), [&](TSNode X) {
    // values, indices = x.sort(): x is a tensor (UseEvidence.h).
    if (is(X, "assignment")) {
      TSNode L = unparen(field(X, "left")), R = unparen(field(X, "right"));
      TSNode Fn = is(R, "call") ? field(R, "function") : TSNode{};
      if ((is(L, "pattern_list") || is(L, "tuple_pattern")) &&
          is(Fn, "attribute") &&
          is(unparen(field(Fn, "object")), "identifier") &&
          pyUnpackedResultProvesTensor(F.text(field(Fn, "attribute"))))
        Used.insert(F.text(unparen(field(Fn, "object"))));
      return;
    }
    // x.dtype, x.grad: a property only tensors have (not x.f(...)'s f).
    if (is(X, "attribute") && !Callees.contains(X.id) &&
        !useKey(field(X, "object"), F).empty() &&
        pyAttributeProvesTensor(F.text(field(X, "attribute")))) {
      Used.insert(useKey(field(X, "object"), F));
      return;
    }
    if (!is(X, "call"))
      return;
    TSNode Fn = field(X, "function");
    Callees.insert(Fn.id);
    TSNode Of = unparen(field(Fn, "object"));
    std::string OfKey = useKey(Of, F);
    llvm::StringRef Method =
        is(Fn, "attribute") ? F.text(field(Fn, "attribute")) : "";
    if (!OfKey.empty() && !Method.empty() && callProvesTensor(X, Method, F))
      Used.insert(OfKey);
    if (!OfKey.empty() && streamOnlyMethod(Method))
      Streams.insert(OfKey);
    std::vector<TSNode> Args = children(field(X, "arguments"));
    // x.copy_(y): y is a tensor too.
    if (tensorMethod(Method) == ApiEffect::TensorCopyFrom && !Args.empty())
      Operand(Args[0], Used);
    std::string Q = ts_node_is_null(Fn) ? "" : I.qualify(Fn);
    // dist.all_reduce(x): a collective's tensor operands are tensors.
    if (const ApiEntry *Row = Q.empty() ? nullptr : collectiveRow(Q)) {
      std::vector<TSNode> Positional;
      for (TSNode A : Args)
        if (!is(A, "keyword_argument"))
          Positional.push_back(A);
      for (int8_t K : {Row->Dest, Row->Source})
        if (K >= 0 && size_t(K) < Positional.size() &&
            !is(unparen(Positional[K]), "list"))
          Operand(Positional[K], Used);
    }
    // torch.cuda.stream(s): s is a stream. (x.record_stream(p) is not
    // enough: p might be any stream, and a record on a stream that may be
    // the one in use covers it.)
    bool TakesStream = streamContextCall(X, F, I);
    if (TakesStream && Args.size() == 1 && is(unparen(Args[0]), "identifier"))
      Streams.insert(F.text(unparen(Args[0])));
    // torch.cuda.stream(streams[i % 2]) of `streams = [a, b]`: a and b are
    // streams (or None) too.
    if (TakesStream && Args.size() == 1 && is(unparen(Args[0]), "subscript"))
      if (TSNode L = unparen(field(unparen(Args[0]), "value"));
          is(L, "identifier"))
        if (auto It = Lists.find(F.text(L)); It != Lists.end())
          for (TSNode E : children(It->second))
            if (is(unparen(E), "identifier"))
              Streams.insert(F.text(unparen(E)));
    // a.wait_stream(b): b is a stream too.
    if (waitsForStream(Method) && Args.size() == 1 &&
        is(unparen(Args[0]), "identifier"))
      Streams.insert(F.text(unparen(Args[0])));
  });
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

bool operandProvesTensor(TSNode Arg, const Imports &I) {
  TSNode List = ts_node_parent(Arg);
  TSNode Call = ts_node_parent(List);
  if (!is(List, "argument_list") || !is(Call, "call"))
    return false;
  unsigned Position = 0;
  for (TSNode A : children(List)) {
    if (ts_node_eq(A, Arg))
      break;
    if (is(A, "keyword_argument") || is(A, "list_splat") ||
        is(A, "dictionary_splat"))
      return false;
    ++Position;
  }
  std::string Q = I.qualify(field(Call, "function"));
  llvm::StringRef Bare = torchBareName(Q);
  return !Bare.empty() && Position < pyTorchFunctionTensorOperands(Bare);
}

} // namespace streamsafe::py
