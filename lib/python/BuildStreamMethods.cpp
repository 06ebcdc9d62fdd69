//===--- BuildStreamMethods.cpp - Methods of streams and events ----------===//
//
// s.wait_stream(o), s.wait_event(e), s.record_event(), s.synchronize();
// e.record(s), e.wait(s), e.synchronize(), e.query(); and the methods of a
// collective's work handle (wait(timeout), is_completed()), which the model
// gives rows of their own.
//
//===----------------------------------------------------------------------===//

#include "lib/lower/SyncCalls.h"
#include "lib/model/ApiRows.h"
#include "lib/python/Builder.h"

namespace streamsafe::py {

Value Builder::streamMethod(TSNode N, const Value &Self, llvm::StringRef Method,
                            const Args &A) {
  Value R;
  R.Node = N;
  const ApiRow *Row = pythonApi("torch.cuda.Stream." + Method.str());
  ApiEffect Effect = Row ? Row->Entry.Effect : ApiEffect::None;
  // What it means: lib/lower/SyncCalls.h.
  lower::SyncCall C;
  C.Effect = Effect;
  C.Stream = Self.Stream;
  std::vector<TSNode> Nodes{N};
  if (Effect == ApiEffect::StreamWaitEvent && Row->Entry.Stream >= 0) {
    // s.wait_stream(o) is an event recorded on o that s waits on. One
    // variable serves every call (each binds a new event): the wait follows
    // the record at once, and no stale event is kept in the state.
    TSNode Arg = A.get(0, "stream");
    Value Other = expr(Arg);
    C.Awaited =
        Other.Class == VarClass::Stream ? Other.Stream : StreamRef::unknown();
    C.AwaitedEvent = syntheticVar("wait_stream", VarClass::Event, TSNode{});
    C.AtAwaited = Nodes.size();
    Nodes.push_back(ts_node_is_null(Arg) ? N : Arg);
  } else if (Effect == ApiEffect::StreamWaitEvent) { // s.wait_event(e)
    // An event not followed (in a list, another object's): taken to order
    // everything, rather than report what it may have ordered.
    Value E = expr(A.get(0, "event"));
    C.Event = E.Class == VarClass::Event ? E.Event : NoVar;
  }
  if (Effect == ApiEffect::StreamWaitEvent ||
      Effect == ApiEffect::StreamSynchronize) {
    emitRecipe(*lower::syncCallSteps(C), Nodes);
    return R;
  }
  if (Effect == ApiEffect::EventRecord) { // s.record_event(e = None)
    TSNode Arg = A.get(0, "event");
    if (!ts_node_is_null(Arg)) {
      Value E = expr(Arg);
      if (E.Class == VarClass::Event && E.Event != NoVar)
        emit(site(SiteKind::EventRecord, N),
             fact::EventRecord{E.Event, Self.Stream});
      return E;
    }
    R.Class = VarClass::Event;
    R.RecordOn = true;
    R.RecordStream = Self.Stream;
    return R;
  }
  if (Effect == ApiEffect::RestrictedStreamQuery) {
    emit(site(SiteKind::Other, N),
         fact::Restricted{RestrictedCall::StreamQuery, NoVar, Self.Stream});
    return R;
  }
  return unknownCall(A, true);
}

Value Builder::eventMethod(TSNode N, const Value &Self, llvm::StringRef Method,
                           const Args &A) {
  Value R;
  R.Node = N;
  if (Self.Event == NoVar)
    return unknownCall(A, true);
  // A collective's work handle (a name the scope binds to a collective)
  // has methods of its own (wait(timeout)).
  TSNode Receiver = unparen(field(field(N, "function"), "object"));
  bool Work = is(Receiver, "identifier") && holdsWork(Receiver);
  const ApiRow *Row = nullptr;
  if (Work)
    Row = pythonApi("torch.distributed.Work." + Method.str());
  if (!Row)
    Row = pythonApi("torch.cuda.Event." + Method.str());
  auto StreamArg = [&] {
    TSNode Arg = Row && Row->Entry.Stream >= 0
                     ? A.get(Row->Entry.Stream, "stream")
                     : TSNode{};
    if (ts_node_is_null(Arg) || is(Arg, "none"))
      return lower::omittedStream(Row->Entry.Effect);
    Value S = expr(Arg);
    return S.Class == VarClass::Stream ? S.Stream : StreamRef::unknown();
  };
  switch (Row ? Row->Entry.Effect : ApiEffect::None) {
  case ApiEffect::EventRecord:
  case ApiEffect::EventBlock:
  case ApiEffect::EventSynchronize: {
    // What it means: lib/lower/SyncCalls.h.
    lower::SyncCall C;
    C.Effect = Row->Entry.Effect;
    C.Event = Self.Event;
    C.Stream = StreamArg();
    emitRecipe(*lower::syncCallSteps(C), {N});
    return R;
  }
  case ApiEffect::RestrictedEventQuery:
    emit(site(SiteKind::Other, N),
         fact::Restricted{RestrictedCall::EventQuery, Self.Event,
                          StreamRef::unknown()});
    return R;
  default:
    // A work's future is the work's event: its wait() (a CUDA future's
    // wait makes the current stream wait) is followed where a name takes
    // it. The handle's other methods (then(), value(), ...) hand it on:
    // taken as waited here.
    if (Work && Method == "get_future" && is(ts_node_parent(N), "assignment"))
      return Self;
    if (Work)
      emit(site(SiteKind::EventWait, N),
           fact::EventWait{Self.Event, StreamRef::current(), false});
    return unknownCall(A, true);
  }
}

} // namespace streamsafe::py
