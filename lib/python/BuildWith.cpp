//===--- BuildWith.cpp - Python with blocks to facts ----------------------===//
//
// A with block's items, entered in order: torch.cuda.stream(s) (a guard
// over the body), torch.cuda.graph(g) (a capture on its stream),
// torch.cuda.device(d), a stream context kept in a local or chosen by a
// test (`ctx = torch.cuda.stream(s) if f else nullcontext()`), an object
// of a class of the file (its __enter__ here, its __exit__ at every exit)
// or a @contextmanager generator of the file (its code before and after
// the yield), anything else unknown. The
// frames they push are left, in reverse, at the end of the body and at
// every jump out of it (leaveFrames).
//
//===----------------------------------------------------------------------===//

#include "lib/python/Api.h"
#include "lib/python/Builder.h"
#include "lib/python/HelperIndex.h"
#include "lib/python/StreamContexts.h"
#include "llvm/ADT/STLExtras.h"

namespace streamsafe::py {

void Builder::withStatement(TSNode N) {
  size_t Depth = St->Frames.size();
  TSNode Clause = {};
  for (TSNode C : children(N))
    if (is(C, "with_clause"))
      Clause = C;
  TSNode Body = field(N, "body");
  // A @contextmanager's `with torch.cuda.stream(s): ... yield ...`, in
  // halves: the first enters the guards and runs the code before the
  // yield (the stream stays set for the caller's with body), the second
  // runs the code after it and restores the stream.
  bool Split = St->SplitPart && !ts_node_is_null(St->SplitYield) &&
               ts_node_eq(ts_node_parent(St->SplitYield), Body);
  if (Split && St->SplitPart == 2) {
    bool After = false;
    for (TSNode S : children(Body)) {
      if (After)
        statement(S);
      After |= ts_node_eq(S, St->SplitYield);
    }
    Position End = endOf(Body);
    uint64_t Order = ts_node_end_byte(lastToken(Body));
    // The guards the first half entered ended with its body: the stream
    // each saved is set back.
    std::vector<TSNode> Values = withValues(N);
    for (auto It = Values.rbegin(); It != Values.rend(); ++It) {
      fact::SetCurrent Back{
          StreamRef::var(syntheticVar("", VarClass::Stream, *It)), false};
      Back.Restores = true;
      emit(siteAt(SiteKind::SetCurrent, End, Order), Back);
    }
    return;
  }
  if (Split)
    for (TSNode V : withValues(N))
      emit(site(SiteKind::Other, V),
           fact::BindStream{syntheticVar("", VarClass::Stream, V),
                            StreamRef::queried()});
  bool Unseen = false;
  for (TSNode Item : children(Clause)) {
    TSNode Entry = field(Item, "value");
    TSNode Alias = {};
    if (is(Entry, "as_pattern")) {
      std::vector<TSNode> C = children(Entry);
      Alias = field(Entry, "alias");
      Entry = C.empty() ? Entry : C[0];
    }
    Entry = unparen(Entry);
    std::string Q =
        is(Entry, "call") ? I.qualify(field(Entry, "function")) : std::string();
    if (!Q.empty() && apiOf(Q) == PyApi::Graph) {
      enterGraph(Entry, Body);
    } else if (!Q.empty() && apiOf(Q) == PyApi::DeviceContext) {
      enterDevice(Entry, Body);
    } else if (streamContextCall(Entry, F, I)) {
      // torch.cuda.stream(s): a guard over the body; stream(None) sets
      // nothing (and restores nothing).
      Args A = argsOf(Entry);
      TSNode Arg = A.get(0, "stream");
      fact::GuardEnter G;
      G.Guard = syntheticVar("stream", VarClass::Guard, Entry);
      if (ts_node_is_null(Arg) || is(Arg, "none")) {
        G.Stream = StreamRef::unknown();
        G.KeepCurrent = true;
      } else if (TSNode C = unparen(Arg); is(C, "conditional_expression") &&
                                          children(C).size() == 3 &&
                                          testsAnything(children(C)[1])) {
        // torch.cuda.stream(torch.cuda.Stream() if cuda else None): the
        // stream of each path, None switching nothing.
        G.Stream = streamByTest(C);
      } else {
        Value S = expr(Arg);
        G.Stream =
            S.Class == VarClass::Stream ? S.Stream : StreamRef::unknown();
      }
      emit(site(SiteKind::GuardEnter, Entry), G);
      pushGuardFrame(G.Guard, Body);
    } else if (enterStreamContext(Entry, Body)) {
      // a stream context made before, or chosen by a test
    } else if (!(is(Entry, "call") &&
                 (enterObject(Entry, Body) || enterGenerator(Entry, Body)))) {
      Value V = expr(Entry);
      escape(V, Entry);
      // torch.no_grad(), torch.autocast(...): PyTorch's own, no thread.
      Unseen |= Q.empty() || apiOf(Q) == PyApi::None;
    }
    if (!ts_node_is_null(Alias))
      for (TSNode T : children(Alias))
        if (is(T, "identifier"))
          bindName(T, Value());
  }
  if (Split) {
    // The first half: up to the yield; the guards stay entered.
    for (TSNode S : children(Body)) {
      if (ts_node_eq(S, St->SplitYield))
        break;
      statement(S);
    }
    St->Frames.resize(Depth);
    return;
  }
  block(Body);
  leaveFrames(Depth);
  St->Frames.resize(Depth);
  // A context manager we do not see may wait for threads on its exit (a
  // ThreadPoolExecutor's shutdown, a lock's release).
  if (Unseen)
    emit(site(SiteKind::Other, N), fact::HostWait{NoVar});
}

void Builder::enterGraph(TSNode Call, TSNode Body) {
  // torch.cuda.graph's __enter__: the host waits for the device, the
  // capture stream (stream=, else the class's own side stream) is made
  // current, and the capture begins on it; __exit__ ends the capture and
  // restores the stream.
  Args A = argsOf(Call);
  for (TSNode P : A.Positional)
    expr(P);
  emit(site(SiteKind::Other, Call), fact::DeviceSync{});
  fact::GuardEnter G;
  G.Guard = syntheticVar("graph", VarClass::Guard, Call);
  TSNode StreamArg = A.keyword("stream");
  if (ts_node_is_null(StreamArg) || is(StreamArg, "none")) {
    // One default capture stream, from the pool, for every capture.
    G.Stream = {StreamRef::Pool, objectOf(TSNode{}), NoVar};
  } else {
    Value S = expr(StreamArg);
    G.Stream = S.Class == VarClass::Stream ? S.Stream : StreamRef::unknown();
  }
  emit(site(SiteKind::GuardEnter, Call), G);
  CaptureMode Mode = CaptureMode::Global;
  if (TSNode M = A.keyword("capture_error_mode"); !ts_node_is_null(M)) {
    llvm::StringRef Text = F.text(M).trim("'\"");
    Mode = Text == "global"         ? CaptureMode::Global
           : Text == "thread_local" ? CaptureMode::ThreadLocal
           : Text == "relaxed"      ? CaptureMode::Relaxed
                                    : CaptureMode::Unknown;
  }
  fact::CaptureBegin B{StreamRef::current(), Mode};
  B.Graph = A.Positional.empty() ? NoVar : channelVar(A.Positional[0]);
  emit(site(SiteKind::CaptureBegin, Call), B);
  Frame &W = pushGuardFrame(G.Guard, Body);
  W.Capture = true;
  W.Graph = B.Graph;
}

bool Builder::enterStreamContext(TSNode Entry, TSNode Body) {
  StreamRef Stream;
  if (is(Entry, "identifier")) {
    // A local of this def whose every binding is a stream context or one
    // that switches nothing: it holds, on each path, the stream of the
    // binding that reached here (bindName).
    llvm::StringRef Name = F.text(Entry);
    const Scope &S = *St->S;
    auto B = S.Bindings.find(Name);
    if (S.owner(Name) != &S || B == S.Bindings.end() ||
        !llvm::all_of(B->second,
                      [&](TSNode V) {
                        return !ts_node_is_null(V) &&
                               (streamContextValue(V, F, I) ||
                                switchesNothing(V, I));
                      }) ||
        !llvm::any_of(B->second,
                      [&](TSNode V) { return streamContextValue(V, F, I); }))
      return false;
    Value V = expr(Entry);
    if (V.Class != VarClass::Stream)
      return false;
    Stream = V.Stream;
  } else if (is(Entry, "conditional_expression") &&
             streamContextValue(Entry, F, I)) {
    // `with (torch.cuda.stream(s) if c else nullcontext()):` each arm on
    // its own path, kept apart by c as a binding of a stream would be.
    Stream = streamByTest(Entry);
  } else {
    return false;
  }
  fact::GuardEnter G;
  G.Guard = syntheticVar("stream", VarClass::Guard, Entry);
  G.Stream = Stream;
  emit(site(SiteKind::GuardEnter, Entry), G);
  pushGuardFrame(G.Guard, Body);
  return true;
}

StreamRef Builder::streamByTest(TSNode Conditional) {
  std::vector<TSNode> Arms = children(Conditional);
  VarId Var = syntheticVar("", VarClass::Stream, Conditional);
  auto Bind = [&](TSNode Arm) {
    Value V = expr(Arm);
    // None, nullcontext(), torch.cuda.stream(None): nothing switched.
    bool None = is(unparen(Arm), "none") || switchesNothing(Arm, I);
    emit(site(SiteKind::Other, Arm),
         fact::BindStream{Var,
                          V.Class == VarClass::Stream && !None
                              ? V.Stream
                              : StreamRef::unknown(),
                          None});
  };
  branchOn(Arms[1], [&] { Bind(Arms[0]); }, [&] { Bind(Arms[2]); });
  return StreamRef::var(Var);
}

Builder::Frame &Builder::pushGuardFrame(VarId Guard, TSNode Body) {
  Frame W;
  W.K = Frame::With;
  W.Guard = Guard;
  W.Node = Body;
  St->Frames.push_back(W);
  return St->Frames.back();
}

void Builder::leaveFrames(size_t Depth) {
  std::vector<Frame> Saved = St->Frames;
  for (size_t K = Saved.size(); K > Depth; --K) {
    const Frame &Fr = Saved[K - 1];
    St->Frames.resize(K - 1);
    if (Fr.K == Frame::With) {
      Position End = endOf(Fr.Node);
      uint64_t Order = ts_node_end_byte(lastToken(Fr.Node));
      VarId Join = NoVar;
      if (Fr.Capture) {
        emit(siteAt(SiteKind::CaptureEnd, End, Order),
             fact::CaptureEnd{StreamRef::current(), Fr.Graph});
        // What the capture stream did was recorded, not run (and what it
        // did before was synchronised on entry): nothing of it is pending
        // for the stream restored next. An event recorded on it and waited
        // on after the restore says so.
        Join = syntheticVar("graph-end", VarClass::Event, TSNode{});
        emit(siteAt(SiteKind::EventDecl, End, Order),
             fact::BindEvent{Join, true});
        emit(siteAt(SiteKind::EventRecord, End, Order),
             fact::EventRecord{Join, StreamRef::current()});
      }
      // The guard restores the stream at the end of the with body.
      emit(siteAt(SiteKind::GuardExit, End, Order), fact::GuardExit{Fr.Guard});
      if (Join != NoVar)
        emit(siteAt(SiteKind::EventWait, End, Order),
             fact::EventWait{Join, StreamRef::current(), false});
    } else if (Fr.K == Frame::Exit) {
      // The object's __exit__ runs in place at the end of the with body.
      SiteId At = siteAt(SiteKind::Other, endOf(Fr.Node),
                         ts_node_end_byte(lastToken(Fr.Node)));
      Out->Callees[At] = Fr.ExitName;
      fact::Spawn S;
      S.Body = Fr.ExitBody;
      S.InPlace = true;
      S.Callee = true;
      emit(At, S);
    } else if (Fr.K == Frame::Finally) {
      block(Fr.Node);
    }
  }
  // The statements around the jump go on lowering (what follows it is
  // unreachable, but still inside the same frames).
  St->Frames = std::move(Saved);
}

} // namespace streamsafe::py
