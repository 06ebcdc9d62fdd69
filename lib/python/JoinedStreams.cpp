//===--- JoinedStreams.cpp - Stream attributes no code waits for ----------===//
//
// The Python reader of lib/lower/JoinedStreams.h: every use of an
// attribute of a held stream's name (`x.stream`, whatever x: a user of
// another class may wait for it) read as a HeldStreamUse, and a
// device-wide synchronize anywhere in the file.
//
//===----------------------------------------------------------------------===//

#include "lib/lower/JoinedStreams.h"
#include "lib/python/HelperIndex.h"

namespace streamsafe::py {

namespace {

using lower::HeldStreamUse;

TSNode parentOf(TSNode N) {
  TSNode P = ts_node_parent(N);
  while (is(P, "parenthesized_expression"))
    P = ts_node_parent(P);
  return P;
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

/// An event recorded on the stream at \p Record (a call): kept as a handle
/// to wait on, or waited where it is recorded; or kept aside.
HeldStreamUse recordUse(TSNode Record, const SourceFile &F) {
  TSNode P = parentOf(Record);
  if (!is(P, "assignment"))
    return HeldStreamUse::EventKeptAside; // into a container, returned
  TSNode Left = unparen(field(P, "left"));
  if (is(Left, "attribute"))
    return HeldStreamUse::EventToWait; // `self.done = s.record_event()`
  TSNode Def = enclosingDef(Record);
  return is(Left, "identifier") && !ts_node_is_null(Def) &&
                 waitedIn(Def, F.text(Left), F)
             ? HeldStreamUse::EventToWait
             : HeldStreamUse::EventKeptAside;
}

/// What the use \p N (`x.<attr>`) of a stream attribute does.
HeldStreamUse useOf(TSNode N, const SourceFile &F) {
  TSNode P = parentOf(N);
  if (is(P, "assignment") && unparen(field(P, "left")).id == N.id)
    return HeldStreamUse::Bind;
  if (is(P, "comparison_operator") || is(P, "not_operator") ||
      is(P, "if_statement") || is(P, "boolean_operator"))
    return HeldStreamUse::Test;
  // A method of that name called (`torch.cuda.stream(...)` itself): not a
  // use of a stream attribute.
  if (is(P, "call") && field(P, "function").id == N.id)
    return HeldStreamUse::Bind;
  if (is(P, "attribute") && is(parentOf(P), "call")) {
    llvm::StringRef M = F.text(field(P, "attribute"));
    if (M == "wait_stream" || M == "wait_event")
      return HeldStreamUse::Waits;
    if (M == "record_event")
      return recordUse(parentOf(P), F);
    if (M == "synchronize" || M == "query")
      return HeldStreamUse::Synchronized;
    return HeldStreamUse::HandedOn;
  }
  // An argument: of a stream context, a record_stream, an event's record,
  // a wait for it.
  if (is(P, "argument_list") || is(P, "keyword_argument")) {
    TSNode Call = parentOf(is(P, "keyword_argument") ? parentOf(P) : P);
    TSNode Fn = field(Call, "function");
    llvm::StringRef M =
        is(Fn, "attribute") ? F.text(field(Fn, "attribute")) : F.text(Fn);
    if (M == "stream" || M == "set_stream")
      return HeldStreamUse::Enter;
    if (M == "record_stream")
      return HeldStreamUse::Records;
    if (M == "record")
      return recordUse(Call, F);
    if (M == "wait_stream")
      return HeldStreamUse::WaitedFor;
  }
  return HeldStreamUse::HandedOn;
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
      if (is(X, "attribute") && lower::joinsForUsers(useOf(X, F)))
        JoinedAttributes.insert(F.text(field(X, "attribute")));
    });
  }
  return !DeviceSynchronized && !JoinedAttributes.contains(Attr);
}

} // namespace streamsafe::py
