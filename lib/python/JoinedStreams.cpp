//===--- JoinedStreams.cpp - Stream attributes no code waits for ----------===//
//
// A method that leaves work in flight on its object's stream (`with
// torch.cuda.stream(self.stream): p.copy_(h, non_blocking=True)`) relies
// on its users to wait for that stream before they touch what it wrote.
// They can only if some code makes another stream or the host wait for it:
// `x.wait_stream(self.stream)`, `self.stream.synchronize()`, an event
// recorded on it and waited where it is recorded or kept in an attribute
// for a later wait, a device-wide synchronize, or the stream handed to
// code that may do any of these. An attribute name used only to enter the
// stream, to make it wait, to record tensors on it or to record events
// that are kept elsewhere (a dict of per-tensor events) is never joined
// (Variable::NeverJoined). Every attribute of that name in the file counts:
// a user of another class may wait for it.
//
//===----------------------------------------------------------------------===//

#include "lib/python/HelperIndex.h"

namespace streamsafe::py {

namespace {

TSNode parentOf(TSNode N) {
  TSNode P = ts_node_parent(N);
  while (is(P, "parenthesized_expression"))
    P = ts_node_parent(P);
  return P;
}

TSNode enclosingDef(TSNode N) {
  for (TSNode P = ts_node_parent(N); !ts_node_is_null(P); P = ts_node_parent(P))
    if (is(P, "function_definition"))
      return P;
  return {};
}

/// The method a call of `<Object>.<method>(...)` calls, when \p Call is
/// one whose object is written \p Object.
llvm::StringRef methodOn(TSNode Call, llvm::StringRef Object,
                         const SourceFile &F) {
  TSNode Fn = field(Call, "function");
  if (!is(Call, "call") || !is(Fn, "attribute") ||
      F.text(unparen(field(Fn, "object"))) != Object)
    return {};
  return F.text(field(Fn, "attribute"));
}

/// Whether the event \p Name (a local) is waited in \p Def's own code.
bool waitedIn(TSNode Def, llvm::StringRef Name, const SourceFile &F) {
  bool Waited = false;
  ownCode(field(Def, "body"), [&](TSNode X) {
    if (!is(X, "call"))
      return;
    llvm::StringRef M = methodOn(X, Name, F);
    Waited |= M == "wait" || M == "synchronize" || M == "query";
    TSNode Fn = field(X, "function");
    if (is(Fn, "attribute") && F.text(field(Fn, "attribute")) == "wait_event")
      for (TSNode A : children(field(X, "arguments")))
        Waited |= F.text(unparen(A)) == Name;
  });
  return Waited;
}

/// An event recorded on the stream at \p Record (a call): whether it is
/// kept where a later wait may find it, or waited where it is recorded.
bool recordJoins(TSNode Record, const SourceFile &F) {
  TSNode P = parentOf(Record);
  if (!is(P, "assignment"))
    return false; // into a container, returned: kept per tensor elsewhere
  TSNode Left = unparen(field(P, "left"));
  if (is(Left, "attribute"))
    return true; // `self.done = s.record_event()`: a handle to wait on
  TSNode Def = enclosingDef(Record);
  return is(Left, "identifier") && !ts_node_is_null(Def) &&
         waitedIn(Def, F.text(Left), F);
}

/// Whether the use \p N (`x.<attr>`) of a stream attribute cannot make
/// anything wait for it.
bool joinsNothing(TSNode N, const SourceFile &F) {
  TSNode P = parentOf(N);
  // Bound (`self.s = ...`), tested (`if self.s is None`), or a method of
  // that name called (`torch.cuda.stream(...)` itself).
  if (is(P, "assignment") && unparen(field(P, "left")).id == N.id)
    return true;
  if (is(P, "comparison_operator") || is(P, "not_operator") ||
      is(P, "if_statement") || is(P, "boolean_operator"))
    return true;
  if (is(P, "call") && field(P, "function").id == N.id)
    return true;
  // `self.s.wait_stream(x)`, `self.s.wait_event(e)`: it waits.
  if (is(P, "attribute") && is(parentOf(P), "call")) {
    llvm::StringRef M = F.text(field(P, "attribute"));
    if (M == "wait_stream" || M == "wait_event")
      return true;
    if (M == "record_event")
      return !recordJoins(parentOf(P), F);
    return false;
  }
  // An argument: of a stream context, a record_stream, an event's record.
  if (is(P, "argument_list") || is(P, "keyword_argument")) {
    TSNode Call = parentOf(is(P, "keyword_argument") ? parentOf(P) : P);
    TSNode Fn = field(Call, "function");
    llvm::StringRef M =
        is(Fn, "attribute") ? F.text(field(Fn, "attribute")) : F.text(Fn);
    if (M == "stream" || M == "record_stream" || M == "set_stream")
      return true;
    if (M == "record")
      return !recordJoins(Call, F);
  }
  return false;
}

} // namespace

bool HelperIndex::neverJoined(llvm::StringRef Attr) {
  if (!JoinedScanned) {
    JoinedScanned = true;
    everyNode(F.root(), [&](TSNode X) {
      if (is(X, "call")) {
        // A device-wide wait joins every stream.
        llvm::StringRef Fn = F.text(field(X, "function"));
        DeviceSynchronized |= Fn.ends_with("cuda.synchronize") ||
                              Fn == "synchronize" ||
                              Fn.ends_with("accelerator.synchronize") ||
                              Fn.ends_with("device_synchronize");
        return;
      }
      if (is(X, "attribute") && !joinsNothing(X, F))
        JoinedAttributes.insert(F.text(field(X, "attribute")));
    });
  }
  return !DeviceSynchronized && !JoinedAttributes.contains(Attr);
}

} // namespace streamsafe::py
