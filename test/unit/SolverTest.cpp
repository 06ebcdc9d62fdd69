//===--- SolverTest.cpp - lib/engine's solver on hand-built IR ------------===//
//
// The solver and its Diagnoser on functions built fact by fact
// (IRFixture.h), with no front end: each test builds the IR a front end
// would make of a few lines of code (the comment above it), runs solve() as
// the front ends do, and compares every finding, field by field, with what
// the engine must report. Each buggy function has a correct twin that must
// stay silent, so a test fails whichever way the engine goes wrong.
// Sites are named by line: line 1 is the function's entry (and its
// parameters' ParamReady sites).
//
//===----------------------------------------------------------------------===//

#include "lib/engine/Solver.h"
#include "IRFixture.h"
#include <gtest/gtest.h>

using namespace streamsafe;
using namespace streamsafe::test;

namespace {

using Lines = std::vector<std::string>;
const Lines Silent;

//===-- Unsynchronized access ---------------------------------------------===//

// 2  auto s1 = getStreamFromPool();
// 3  auto s2 = getStreamFromPool();
// 4  { CUDAStreamGuard g1(s1);
// 5    at::Tensor A = at::ones(...);
// 6    A.mul_(2); }                      // 7: g1 restores
//    [8  CUDAEvent e; 9  e.record(s1); 10  e.block(s2);]   (WithEvent)
// 11 CUDAStreamGuard g2(s2);
// 12 auto B = A.sum();
// 13 A.record_stream(s2);
// 14 g2 restores, 15 A dies, 16 the end.
struct PoolRace {
  IRFixture F;
  VarId S1, S2, A;
  SiteId Guard1, Write, Guard2, Read;

  explicit PoolRace(bool WithEvent) {
    S1 = F.stream("s1");
    S2 = F.stream("s2");
    A = F.tensor("A");
    VarId G1 = F.guard("g1"), G2 = F.guard("g2"), E = F.event("e");
    BlockRef B = F.entry();
    B.bindStream(2, S1, poolStream(F.object()));
    B.bindStream(3, S2, poolStream(F.object()));
    Guard1 = B.guardEnter(4, G1, StreamRef::var(S1));
    B.allocate(5, A, StreamRef::current());
    Write = B.write(6, A, StreamRef::current());
    B.guardExit(7, G1);
    if (WithEvent) {
      B.newEvent(8, E);
      B.record(9, E, StreamRef::var(S1));
      B.wait(10, E, StreamRef::var(S2));
    }
    Guard2 = B.guardEnter(11, G2, StreamRef::var(S2));
    Read = B.read(12, A, StreamRef::current());
    B.recordStream(13, A, StreamRef::var(S2));
    B.guardExit(14, G2);
    B.unbind(15, A);
    F.exit(B, 16);
  }
};

TEST(Solver, WriteOnOnePoolStreamReadOnAnotherWithoutWait) {
  PoolRace P(/*WithEvent=*/false);
  SolverResult R = P.F.solve();
  ASSERT_EQ(R.State, SolverResult::Analysed);
  ASSERT_EQ(R.Findings.size(), 1u);
  ASSERT_EQ(R.Findings[0].kind(), FindingKind::UnsynchronizedAccess);
  const auto *Fi = R.Findings[0].as<finding::UnsynchronizedAccess>();
  ASSERT_TRUE(Fi);
  EXPECT_EQ(Fi->Tensor, P.A);
  EXPECT_EQ(Fi->Storage, P.A);
  // The read, on s2 (current since the guard of line 11).
  EXPECT_EQ(Fi->Access.Site, P.Read);
  EXPECT_EQ(R.Findings[0].site(), P.Read);
  EXPECT_EQ(Fi->Access.Mode, AccessMode::Read);
  EXPECT_EQ(Fi->Access.Stream.Kind, StreamKind::Pool);
  EXPECT_EQ(Fi->Access.Stream.Named, P.S2);
  EXPECT_EQ(Fi->Access.Stream.Device, -1);
  EXPECT_EQ(Fi->Access.StreamSetAt, P.Guard2);
  EXPECT_TRUE(Fi->Access.OnCurrentStream);
  // The write it races with, on s1.
  EXPECT_EQ(Fi->Prior.Site, P.Write);
  EXPECT_EQ(pairedSite(R.Findings[0]), P.Write);
  EXPECT_EQ(Fi->Prior.Mode, AccessMode::Write);
  EXPECT_EQ(Fi->Prior.Stream.Kind, StreamKind::Pool);
  EXPECT_EQ(Fi->Prior.Stream.Named, P.S1);
  EXPECT_EQ(Fi->Prior.StreamSetAt, P.Guard1);
  EXPECT_TRUE(Fi->Prior.OnCurrentStream);
  // (No FreedAt or Related: an unsynchronized access has neither.)
  EXPECT_EQ(R.Findings[0].CallSite, NoSite);
  // The same, as the fixture writes it.
  EXPECT_EQ(P.F.findings(), Lines{"UnsynchronizedAccess tensor=A storage=A "
                                  "access={read@12 pool 's2' set@11 current} "
                                  "prior={write@6 pool 's1' set@4 current}"});
}

TEST(Solver, EventRecordedOnTheWriterAndWaitedOnByTheReaderIsSilent) {
  PoolRace P(/*WithEvent=*/true);
  EXPECT_EQ(P.F.findings(), Silent);
}

// 2  auto s = getStreamFromPool();
// 3  at::Tensor A = at::ones(...);      // on the caller's stream
// 4  CUDAEvent ready;
//    if (...) { 5 ready.record(); 6 ready.block(s); }
//    else     { [7 ready.record(); 8 ready.block(s);] }   (BothWait)
// 9  A.mul_(2) on s;  10 A.record_stream(s);  11 A dies;  12 the end.
IRFixture branchWait(bool BothWait) {
  IRFixture F;
  VarId S = F.stream("s"), E = F.event("ready"), A = F.tensor("A");
  BlockRef Entry = F.entry(), Then = F.block(), Else = F.block(),
           Join = F.block();
  Entry.bindStream(2, S, poolStream(F.object()));
  Entry.allocate(3, A, StreamRef::current());
  Entry.newEvent(4, E);
  Then.record(5, E, StreamRef::current());
  Then.wait(6, E, StreamRef::var(S));
  if (BothWait) {
    Else.record(7, E, StreamRef::current());
    Else.wait(8, E, StreamRef::var(S));
  }
  F.edge(Entry, Then);
  F.edge(Entry, Else);
  F.edge(Then, Join);
  F.edge(Else, Join);
  Join.write(9, A, StreamRef::var(S));
  Join.recordStream(10, A, StreamRef::var(S));
  Join.unbind(11, A);
  F.exit(Join, 12);
  return F;
}

TEST(Solver, BranchWhereOnlyOnePathWaits) {
  // ones() wrote A on the caller's stream; only the then-path orders s
  // after it.
  EXPECT_EQ(branchWait(/*BothWait=*/false).findings(),
            Lines{"UnsynchronizedAccess tensor=A storage=A "
                  "access={write@9 pool 's'} "
                  "prior={write@3 entry-current set@1 current}"});
}

TEST(Solver, BranchWhereBothPathsWaitIsSilent) {
  EXPECT_EQ(branchWait(/*BothWait=*/true).findings(), Silent);
}

// 2  auto s = getStreamFromPool();
// 3  at::Tensor buf = at::zeros(...);
// 4  CUDAEvent e; 5 e.record(); 6 e.block(s);
//    for (...) {                          // the head: block Head
// 8    buf.add_(1) on s;
// 9    e.record(s);  10 e.block(current);
// 11   buf.mul_(2) on the current stream;
//    }
// 13 buf dies; 14 the end.
// Within an iteration every access is ordered; the write of line 11 is not
// ordered before the next iteration's write of line 8 on s.
IRFixture loop(bool BackEdge) {
  IRFixture F;
  VarId S = F.stream("s"), E = F.event("e"), Buf = F.tensor("buf");
  BlockRef Entry = F.entry(), Head = F.block(), Body = F.block(),
           After = F.block();
  Entry.bindStream(2, S, poolStream(F.object()));
  Entry.allocate(3, Buf, StreamRef::current());
  Entry.newEvent(4, E);
  Entry.record(5, E, StreamRef::current());
  Entry.wait(6, E, StreamRef::var(S));
  Body.write(8, Buf, StreamRef::var(S));
  Body.record(9, E, StreamRef::var(S));
  Body.wait(10, E, StreamRef::current());
  Body.write(11, Buf, StreamRef::current());
  After.unbind(13, Buf);
  F.edge(Entry, Head);
  F.edge(Head, Body);
  F.edge(Head, After);
  F.edge(Body, BackEdge ? Head : After);
  F.exit(After, 14);
  return F;
}

TEST(Solver, LoopCarriedRace) {
  EXPECT_EQ(loop(/*BackEdge=*/true).findings(),
            Lines{"UnsynchronizedAccess tensor=buf storage=buf "
                  "access={write@8 pool 's'} "
                  "prior={write@11 entry-current set@1 current}"});
  // The same body run once: every access is ordered.
  EXPECT_EQ(loop(/*BackEdge=*/false).findings(), Silent);
}

TEST(Solver, OverBudgetIsSkippedWithNoFindings) {
  IRFixture F = loop(/*BackEdge=*/true);
  SolverResult Full = F.solve();
  ASSERT_EQ(Full.State, SolverResult::Analysed);
  ASSERT_EQ(Full.Findings.size(), 1u);
  // Less state work than the fixpoint needs: no findings from a partial
  // fixpoint.
  SolverLimits Tight;
  Tight.MaxStateWork = Full.StateWork - 1;
  SolverResult R = F.solve(Tight);
  EXPECT_EQ(R.State, SolverResult::BudgetExceeded);
  EXPECT_TRUE(R.Findings.empty());
  // Exactly enough is enough.
  Tight.MaxStateWork = Full.StateWork;
  EXPECT_EQ(F.solve(Tight).State, SolverResult::Analysed);
}

// void f(at::Tensor x) {
// 2  auto s = getStreamFromPool();
// 3  CUDAStreamGuard g(s);
// 4  auto y = x.sum();                   // x is ready on the caller's stream
TEST(Solver, ParameterIsReadyOnTheCallersStream) {
  IRFixture F;
  VarId X = F.param("x", VarClass::Tensor);
  VarId S = F.stream("s"), G = F.guard("g");
  BlockRef B = F.entry();
  B.bindStream(2, S, poolStream(F.object()));
  B.guardEnter(3, G, StreamRef::var(S));
  B.read(4, X, StreamRef::current());
  B.guardExit(5, G);
  F.exit(B, 5);
  EXPECT_EQ(F.findings(), Lines{"UnsynchronizedAccess tensor=x storage=x "
                                "access={read@4 pool 's' set@3 current} "
                                "prior={entry-ready@1 entry-current set@1}"});
}

//===-- Writes left for the caller ----------------------------------------===//

enum class Ending { Returns, Synchronizes, RecordsAnEvent };

// void f(at::Tensor x[, CUDAStream s]) {
// 2  auto s = getStreamFromPool();       (or the parameter s)
// 3  CUDAEvent ready; 4 ready.record(); 5 ready.block(s);
// 6  CUDAStreamGuard g(s);
// 7  x.add_(1);                           // the caller's x, on s
// 8  g restores;
//    [9 s.synchronize();]  or  [9 CUDAEvent done; 10 done.record(s);]
// 11 the end: the caller uses x next on its current stream.
IRFixture leftForCaller(Ending How, bool StreamParameter = false) {
  IRFixture F;
  VarId X = F.param("x", VarClass::Tensor);
  VarId S = StreamParameter ? F.param("s", VarClass::Stream) : F.stream("s");
  VarId Ready = F.event("ready"), Done = F.event("done"), G = F.guard("g");
  BlockRef B = F.entry();
  if (!StreamParameter)
    B.bindStream(2, S, poolStream(F.object()));
  B.newEvent(3, Ready);
  B.record(4, Ready, StreamRef::current());
  B.wait(5, Ready, StreamRef::var(S));
  B.guardEnter(6, G, StreamRef::var(S));
  B.write(7, X, StreamRef::current());
  B.guardExit(8, G);
  if (How == Ending::Synchronizes)
    B.streamSync(9, StreamRef::var(S));
  if (How == Ending::RecordsAnEvent) {
    B.newEvent(9, Done);
    B.record(10, Done, StreamRef::var(S));
  }
  F.exit(B, 11);
  return F;
}

TEST(Solver, WriteIntoTheCallersTensorLeftOnAPoolStream) {
  // At the write (its site() is the prior's), with the exit as the
  // caller's next use on its current stream.
  EXPECT_EQ(leftForCaller(Ending::Returns).findings(),
            Lines{"UnsynchronizedAccess tensor=x storage=x "
                  "access={read@11 entry-current} "
                  "prior={write@7 pool 's' set@6 current} left-for-caller"});
}

TEST(Solver, WriteIntoTheCallersTensorSynchronizedIsSilent) {
  EXPECT_EQ(leftForCaller(Ending::Synchronizes).findings(), Silent);
}

TEST(Solver, WriteIntoTheCallersTensorWithAnEventHandedOnIsSilent) {
  EXPECT_EQ(leftForCaller(Ending::RecordsAnEvent).findings(), Silent);
}

TEST(Solver, WriteIntoTheCallersTensorOnItsOwnStreamIsSilent) {
  EXPECT_EQ(leftForCaller(Ending::Returns, /*StreamParameter=*/true).findings(),
            Silent);
}

//===-- Missing record_stream ---------------------------------------------===//

enum class End { Dies, RecordStreamThenDies, Escapes };

// 2  auto s = getStreamFromPool();
// 3  at::Tensor A = at::empty(...).normal_();   // on the caller's stream
// 4  CUDAEvent ready; 5 ready.record(); 6 ready.block(s);
// 7  at::sum(A) on s;
//    [8 A.record_stream(s);]  or  [8 return A;]
// 9  A dies; 10 the end.
IRFixture sideStreamUse(End How, bool KnownStream = true) {
  IRFixture F;
  VarId S = F.stream("s"), E = F.event("ready"), A = F.tensor("A");
  BlockRef B = F.entry();
  B.bindStream(2, S,
               KnownStream ? poolStream(F.object()) : StreamRef::unknown());
  B.allocate(3, A, StreamRef::current());
  B.newEvent(4, E);
  B.record(5, E, StreamRef::current());
  B.wait(6, E, StreamRef::var(S));
  B.read(7, A, StreamRef::var(S));
  if (How == End::RecordStreamThenDies)
    B.recordStream(8, A, StreamRef::var(S));
  if (How == End::Escapes)
    B.escape(8, A);
  B.unbind(9, A);
  F.exit(B, 10);
  return F;
}

TEST(Solver, AllocatedOnCurrentUsedOnSideStreamDiesWithoutRecordStream) {
  EXPECT_EQ(sideStreamUse(End::Dies).findings(),
            Lines{"MissingRecordStream tensor=A "
                  "access={read@7 pool 's'} prior={allocate@3 entry-current} "
                  "freed@9 single-other-stream"});
}

TEST(Solver, RecordStreamBeforeTheEndIsSilent) {
  EXPECT_EQ(sideStreamUse(End::RecordStreamThenDies).findings(), Silent);
}

TEST(Solver, EscapedTensorIsNotFreedHere) {
  EXPECT_EQ(sideStreamUse(End::Escapes).findings(), Silent);
}

//===-- Unrestored current stream -----------------------------------------===//

// 2  auto s = getStreamFromPool();
// 3  auto saved = getCurrentCUDAStream();
// 4  setCurrentCUDAStream(s);
//    if (...) 5 return;
// 6  setCurrentCUDAStream(saved);
// 7  }
TEST(Solver, SetCurrentNotRestoredOnOnePath) {
  IRFixture F;
  VarId S = F.stream("s"), Saved = F.stream("saved");
  BlockRef Entry = F.entry(), Early = F.block(), Rest = F.block();
  Entry.bindStream(2, S, poolStream(F.object()));
  Entry.bindStream(3, Saved, StreamRef::queried());
  Entry.setCurrent(4, StreamRef::var(S));
  F.edge(Entry, Early);
  F.edge(Entry, Rest);
  F.exit(Early, 5);
  Rest.setCurrent(6, StreamRef::var(Saved));
  F.exit(Rest, 7);
  // At the set, with the path out that keeps it.
  EXPECT_EQ(F.findings(),
            Lines{"UnrestoredCurrentStream access={@4} related@5"});
  // A function whose job is to leave a stream set is not reported.
  F.ir().MayLeaveStreamSet = true;
  EXPECT_EQ(F.findings(), Silent);
}

// 2  auto s = getStreamFromPool();
// 3  CUDAStreamGuard g(s);
//    if (...) 5 return;                 // g restores
// 7  }                                  // g restores
TEST(Solver, GuardRestoresOnEveryPathIsSilent) {
  IRFixture F;
  VarId S = F.stream("s"), G = F.guard("g");
  BlockRef Entry = F.entry(), Early = F.block(), Rest = F.block();
  Entry.bindStream(2, S, poolStream(F.object()));
  Entry.guardEnter(3, G, StreamRef::var(S));
  F.edge(Entry, Early);
  F.edge(Entry, Rest);
  Early.guardExit(5, G);
  F.exit(Early, 5);
  Rest.guardExit(7, G);
  F.exit(Rest, 7);
  EXPECT_EQ(F.findings(), Silent);
}

// 2  CUDAStreamGuard g(getStreamFromPool());
// 3  setCurrentCUDAStream(getStreamFromPool());
// 4  }                                  // g restores the caller's stream
TEST(Solver, GuardExitUndoesASetInsideIt) {
  for (bool Guarded : {true, false}) {
    IRFixture F;
    VarId G = F.guard("g");
    BlockRef B = F.entry();
    B.guardEnter(2, G, poolStream(F.object()));
    B.setCurrent(3, poolStream(F.object()));
    if (Guarded)
      B.guardExit(4, G);
    F.exit(B, 4);
    EXPECT_EQ(F.findings(),
              Guarded ? Silent
                      : Lines{"UnrestoredCurrentStream access={@3} related@4"})
        << "guarded: " << Guarded;
  }
}

// void f(bool c) {
// 2  auto s = getStreamFromPool();
// 3  auto saved = getCurrentCUDAStream();
//    if (c) 4 setCurrentCUDAStream(s);
// 5  ...
//    if (c) 6 setCurrentCUDAStream(saved);
// 7  }
IRFixture flagGuardedSet(bool Conditions) {
  IRFixture F;
  VarId C = F.param("c", VarClass::Other);
  VarId S = F.stream("s"), Saved = F.stream("saved");
  BlockRef Entry = F.entry(), Set = F.block(), Mid = F.block(),
           Restore = F.block(), End = F.block();
  Entry.bindStream(2, S, poolStream(F.object()));
  Entry.bindStream(3, Saved, StreamRef::queried());
  Set.setCurrent(4, StreamRef::var(S));
  Mid.currentQuery(5);
  Restore.setCurrent(6, StreamRef::var(Saved));
  auto If = [&](bool Value) {
    return Conditions ? Assumption{C, Value} : Assumption();
  };
  F.edge(Entry, Set, If(true));
  F.edge(Entry, Mid, If(false));
  F.edge(Set, Mid);
  F.edge(Mid, Restore, If(true));
  F.edge(Mid, End, If(false));
  F.edge(Restore, End);
  F.exit(End, 7);
  return F;
}

TEST(Solver, SetAndRestoreUnderTheSameFlagIsSilent) {
  // The edges say what c is: the path that sets and skips the restore
  // contradicts itself and is never followed.
  EXPECT_EQ(flagGuardedSet(/*Conditions=*/true).findings(), Silent);
  // Without them, that path is taken.
  EXPECT_EQ(flagGuardedSet(/*Conditions=*/false).findings(),
            Lines{"UnrestoredCurrentStream access={@4} related@7"});
}

//===-- Unrecorded event wait ---------------------------------------------===//

enum class Recorded { Never, OnOnePath, OnBothPaths };

// 2  auto s = getStreamFromPool();
// 3  CUDAEvent e;
//    if (...) 4 e.record(); else [6 e.record();]
// 5  e.block(s);
TEST(Solver, WaitOnAnEventRecordedOnOnePathOnly) {
  auto Build = [](Recorded How) {
    IRFixture F;
    VarId S = F.stream("s"), E = F.event("e");
    BlockRef Entry = F.entry(), Then = F.block(), Else = F.block(),
             Join = F.block();
    Entry.bindStream(2, S, poolStream(F.object()));
    Entry.newEvent(3, E);
    if (How != Recorded::Never)
      Then.record(4, E, StreamRef::current());
    if (How == Recorded::OnBothPaths)
      Else.record(6, E, StreamRef::current());
    Join.wait(5, E, StreamRef::var(S));
    F.edge(Entry, Then);
    F.edge(Entry, Else);
    F.edge(Then, Join);
    F.edge(Else, Join);
    F.exit(Join, 7);
    return F;
  };
  // The wait, the record on the path that has one, the declaration.
  EXPECT_EQ(Build(Recorded::OnOnePath).findings(),
            Lines{"UnrecordedEventWait tensor=e access={@5} "
                  "prior={@4} related@3 maybe"});
  EXPECT_EQ(Build(Recorded::Never).findings(),
            Lines{"UnrecordedEventWait tensor=e access={@5} "
                  "related@3"});
  EXPECT_EQ(Build(Recorded::OnBothPaths).findings(), Silent);
}

//===-- Host read before sync ---------------------------------------------===//

// void f(at::Tensor x) {
// 2  at::Tensor h = x.to(at::kCPU, /*non_blocking=*/true);   // pinned
//    [3 at::cuda::getCurrentCUDAStream().synchronize();]
// 4  float v = h.data_ptr<float>()[0];
// 5  h dies; 6 the end.
IRFixture nonBlockingCopyToHost(bool Sync) {
  IRFixture F;
  VarId X = F.param("x", VarClass::Tensor);
  VarId H = F.tensor("h");
  BlockRef B = F.entry();
  fact::Access Copy;
  Copy.Tensor = TensorRef::var(X);
  Copy.Stream = StreamRef::current();
  Copy.Async = Copy.Copy = true;
  B.add(2, Copy);
  fact::Allocate Pinned;
  Pinned.Host = Pinned.Pinned = Pinned.Async = true;
  B.allocate(2, H, StreamRef::current(), Pinned);
  if (Sync)
    B.streamSync(3, StreamRef::queried());
  B.hostRead(4, H);
  B.unbind(5, H);
  F.exit(B, 6);
  return F;
}

TEST(Solver, HostReadsANonBlockingCopyBeforeSync) {
  // The read, and the copy still writing h on the caller's stream.
  EXPECT_EQ(nonBlockingCopyToHost(/*Sync=*/false).findings(),
            Lines{"HostReadBeforeSync tensor=h access={read@4} "
                  "prior={write@2 entry-current set@1 current}"});
}

TEST(Solver, StreamSyncBeforeTheHostReadIsSilent) {
  EXPECT_EQ(nonBlockingCopyToHost(/*Sync=*/true).findings(), Silent);
}

//===-- Unknown streams: never reported -----------------------------------===//

enum class Which { S1, S2, Unknown, Unbound };

// 2  auto s1 = getStreamFromPool();  3  auto s2 = getStreamFromPool();
// 4  at::Tensor A = <alloc on First>;  5  A.add_(1) on First;
// 6  A.sum() on Second;  7  return A;
// Unknown: a stream expression the front end cannot follow; Unbound: a
// stream variable u that holds nothing known on this path.
IRFixture twoStreams(Which First, Which Second) {
  IRFixture F;
  VarId S1 = F.stream("s1"), S2 = F.stream("s2"), U = F.stream("u"),
        A = F.tensor("A");
  auto Ref = [&](Which W) {
    switch (W) {
    case Which::S1:
      return StreamRef::var(S1);
    case Which::S2:
      return StreamRef::var(S2);
    case Which::Unknown:
      return StreamRef::unknown();
    case Which::Unbound:
      break;
    }
    return StreamRef::var(U);
  };
  BlockRef B = F.entry();
  B.bindStream(2, S1, poolStream(F.object()));
  B.bindStream(3, S2, poolStream(F.object()));
  B.allocate(4, A, Ref(First));
  B.write(5, A, Ref(First));
  B.read(6, A, Ref(Second));
  B.escape(7, A);
  F.exit(B, 8);
  return F;
}

TEST(Solver, UnknownStreamsAreNeverPartOfARace) {
  // Pool against pool is a race (the twin of the silent ones).
  EXPECT_EQ(twoStreams(Which::S1, Which::S2).findings(),
            Lines{"UnsynchronizedAccess tensor=A storage=A "
                  "access={read@6 pool 's2'} prior={write@5 pool 's1'}"});
  EXPECT_EQ(twoStreams(Which::S1, Which::Unknown).findings(), Silent);
  EXPECT_EQ(twoStreams(Which::Unknown, Which::S2).findings(), Silent);
  EXPECT_EQ(twoStreams(Which::S1, Which::Unbound).findings(), Silent);
  EXPECT_EQ(twoStreams(Which::Unbound, Which::S2).findings(), Silent);
}

TEST(Solver, UseOnAnUnknownStreamNeedsNoRecordStream) {
  // sideStreamUse(End::Dies) with s a stream the analysis cannot name.
  EXPECT_EQ(sideStreamUse(End::Dies, /*KnownStream=*/false).findings(), Silent);
}

TEST(Solver, EventRecordedOnAnUnknownStreamOrdersEverything) {
  // PoolRace with its record on a stream that cannot be named: the wait
  // may order anything, so nothing is reported.
  IRFixture F;
  VarId S1 = F.stream("s1"), S2 = F.stream("s2"), A = F.tensor("A"),
        E = F.event("e");
  BlockRef B = F.entry();
  B.bindStream(2, S1, poolStream(F.object()));
  B.bindStream(3, S2, poolStream(F.object()));
  B.allocate(4, A, StreamRef::var(S1));
  B.newEvent(5, E);
  B.record(6, E, StreamRef::unknown());
  B.wait(7, E, StreamRef::var(S2));
  B.read(8, A, StreamRef::var(S2));
  B.escape(9, A);
  F.exit(B, 10);
  EXPECT_EQ(F.findings(), Silent);
}

TEST(Solver, NonBlockingCopyOnAnUnknownStreamIsNotReported) {
  for (bool Known : {true, false}) {
    IRFixture F;
    VarId H = F.tensor("h");
    BlockRef B = F.entry();
    fact::Allocate Pinned;
    Pinned.Host = Pinned.Pinned = Pinned.Async = true;
    B.allocate(2, H, Known ? StreamRef::current() : StreamRef::unknown(),
               Pinned);
    B.hostRead(3, H);
    B.unbind(4, H);
    F.exit(B, 5);
    EXPECT_EQ(F.findings(),
              Known ? Lines{"HostReadBeforeSync tensor=h "
                            "access={read@3} "
                            "prior={write@2 entry-current set@1 current}"}
                    : Silent)
        << "known: " << Known;
  }
}

// 2  auto side = getStreamFromPool();
// 3  capture_begin() on <Capturing>;
// 4  at::Tensor t = <alloc on side>;      // side never forked into it
// 5  capture_end();  6  return t;
TEST(Solver, CaptureOnAnUnknownStreamReportsNoUncapturedWork) {
  for (bool Known : {true, false}) {
    IRFixture F;
    VarId Side = F.stream("side"), T = F.tensor("t");
    BlockRef B = F.entry();
    B.bindStream(2, Side, poolStream(F.object()));
    StreamRef Capturing = Known ? StreamRef::current() : StreamRef::unknown();
    B.captureBegin(3, Capturing);
    B.allocate(4, T, StreamRef::var(Side));
    B.captureEnd(5, Capturing);
    B.escape(6, T);
    F.exit(B, 7);
    EXPECT_EQ(F.findings(),
              Known ? Lines{"GraphCapture access={write@4 pool 'side'} "
                            "prior={entry-current} capture=uncaptured "
                            "begin@3 mode=global"}
                    : Silent)
        << "known: " << Known;
  }
}

// A set of a stream the analysis cannot name is still a set: nothing says
// it is the caller's stream, so it is pending until restored (as
// docs/checks/unrestored-current-stream.md says of every set).
TEST(Solver, SetCurrentToAnUnknownStreamIsStillASet) {
  IRFixture F;
  BlockRef B = F.entry();
  B.setCurrent(2, StreamRef::unknown());
  F.exit(B, 3);
  EXPECT_EQ(F.findings(),
            Lines{"UnrestoredCurrentStream access={@2} related@3"});
}

//===-- Threads -----------------------------------------------------------===//

enum class Spawner { Guarded, Unguarded, GuardedUnknown, BodyGuards };

// 2  auto s = getStreamFromPool();
// 3  CUDAStreamGuard g(s);                    (not when Unguarded)
// 4  std::thread t([&] {
//      [5 CUDAStreamGuard inner(s);]          (BodyGuards)
// 6    at::Tensor y = at::ones(...);
// 7    getCurrentCUDAStream();
// 8  });                                      // y dies
// 9  t.join(); }                              // g restores
IRFixture thread(Spawner How) {
  IRFixture F;
  VarId S = F.stream("s"), G = F.guard("g"), Inner = F.guard("inner"),
        Y = F.tensor("y");
  BodyId T = F.callable();
  BlockRef Body = F.entry(T);
  if (How == Spawner::BodyGuards)
    Body.guardEnter(5, Inner, StreamRef::var(S));
  Body.allocate(6, Y, StreamRef::current());
  Body.currentQuery(7);
  Body.unbind(8, Y);
  if (How == Spawner::BodyGuards)
    Body.guardExit(8, Inner);
  F.exit(Body, 8);
  BlockRef B = F.entry();
  B.bindStream(2, S, poolStream(F.object()));
  if (How != Spawner::Unguarded)
    B.guardEnter(3, G,
                 How == Spawner::GuardedUnknown ? StreamRef::unknown()
                                                : StreamRef::var(S));
  B.spawn(4, T);
  if (How != Spawner::Unguarded)
    B.guardExit(9, G);
  F.exit(B, 9);
  return F;
}

TEST(Solver, ThreadBodyUsesTheCurrentStreamItNeverHad) {
  // Once per spawn, at the first work (the query of line 7 is folded).
  EXPECT_EQ(thread(Spawner::Guarded).findings(),
            Lines{"ThreadCurrentStream access={@6} "
                  "prior={pool 's' set@3} related@4"});
}

TEST(Solver, ThreadCurrentStreamSilentWithoutASetOrWithTheBodysOwnGuard) {
  EXPECT_EQ(thread(Spawner::Unguarded).findings(), Silent);
  EXPECT_EQ(thread(Spawner::BodyGuards).findings(), Silent);
}

// A spawner whose guard set a stream the analysis cannot name (a
// CUDAMultiStreamGuard, a guard on the result of an unknown call). That
// stream may be the caller's or the default stream, which
// thread-current-stream never reports (docs/checks/thread-current-stream.md:
// "a stream other than the caller's current stream or the default
// stream"); an Unknown stream is never reported (IR.h), and
// docs/api-model.md says nothing inside a CUDAMultiStreamGuard's scope is.
// Diagnoser::threadCurrentStream skips a spawner on an unknown stream as it
// skips one on the default or the entry stream.
TEST(Solver, ThreadCurrentStreamSilentWhenTheSpawnersStreamIsUnknown) {
  EXPECT_EQ(thread(Spawner::GuardedUnknown).findings(), Silent);
}

// A helper run in place (a same-file function): its race is reported in
// the helper, reached through the call.
// 2  auto s1 = getStreamFromPool();  3  auto s2 = getStreamFromPool();
// 4  at::Tensor A = <alloc on s1>;
// 5  helper(A);   where helper does:  6  A.sum() on s2;
// 7  return A;
TEST(Solver, RaceInAHelperRunInPlaceNamesTheCall) {
  IRFixture F;
  VarId S1 = F.stream("s1"), S2 = F.stream("s2"), A = F.tensor("A");
  BodyId Helper = F.callable();
  BlockRef H = F.entry(Helper);
  H.read(6, A, StreamRef::var(S2));
  F.exit(H, 6);
  BlockRef B = F.entry();
  B.bindStream(2, S1, poolStream(F.object()));
  B.bindStream(3, S2, poolStream(F.object()));
  B.allocate(4, A, StreamRef::var(S1));
  fact::Spawn Call;
  Call.Body = Helper;
  Call.InPlace = Call.Callee = true;
  B.add(5, SiteKind::Other, Call);
  B.escape(7, A);
  F.exit(B, 8);
  EXPECT_EQ(F.findings(), Lines{"UnsynchronizedAccess tensor=A storage=A "
                                "access={read@6 pool 's2'} "
                                "prior={write@4 pool 's1'} call@5"});
}

//===-- CUDA graph capture ------------------------------------------------===//

// void f(at::Tensor x) {
// 2  auto side = getStreamFromPool();
// 3  graph.capture_begin();                   // on the current stream
// 4  CUDAEvent fork; 5 fork.record(); 6 fork.block(side);
// 7  x.add_(1) on side;
//    [8 CUDAEvent join; 9 join.record(side); 10 join.block(current);]
// 11 graph.capture_end();
IRFixture captureWithFork(bool Joined) {
  IRFixture F;
  VarId X = F.param("x", VarClass::Tensor);
  VarId Side = F.stream("side"), Fork = F.event("fork"), Join = F.event("join");
  BlockRef B = F.entry();
  B.bindStream(2, Side, poolStream(F.object()));
  B.captureBegin(3, StreamRef::current());
  B.newEvent(4, Fork);
  B.record(5, Fork, StreamRef::current());
  B.wait(6, Fork, StreamRef::var(Side));
  B.write(7, X, StreamRef::var(Side));
  if (Joined) {
    B.newEvent(8, Join);
    B.record(9, Join, StreamRef::var(Side));
    B.wait(10, Join, StreamRef::current());
  }
  B.captureEnd(11, StreamRef::current());
  F.exit(B, 12);
  return F;
}

TEST(Solver, ForkNotJoinedBeforeCaptureEnd) {
  // At the end of the capture: the forked stream, where it was forked
  // (prior), its last work (related) and the capture.
  EXPECT_EQ(captureWithFork(/*Joined=*/false).findings(),
            Lines{"GraphCapture access={@11 pool 'side'} "
                  "prior={@6 entry-current} related@7 capture=unjoined "
                  "begin@3 mode=global"});
}

TEST(Solver, ForkJoinedBeforeCaptureEndIsSilent) {
  EXPECT_EQ(captureWithFork(/*Joined=*/true).findings(), Silent);
}

//===-- Determinism -------------------------------------------------------===//

TEST(Solver, SameFunctionSameAnswer) {
  IRFixture F = loop(/*BackEdge=*/true);
  SolverResult A = F.solve(), B = F.solve();
  EXPECT_EQ(A.BlockVisits, B.BlockVisits);
  EXPECT_EQ(F.findings(), F.findings());
  EXPECT_GT(A.BlockVisits, F.ir().Bodies[0].Blocks.size())
      << "the loop is visited more than once";
}

} // namespace
