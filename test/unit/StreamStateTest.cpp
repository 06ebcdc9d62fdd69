//===--- StreamStateTest.cpp - lib/engine/StreamState and StreamTable ----===//
//
// The lattice on hand-built states: join intersects "visible to", unions
// pending accesses, treats unreachable as bottom; events join must-recorded
// with AND and may-recorded with OR; and the rules that decide when two
// stream symbols are known to be different streams.
//
//===----------------------------------------------------------------------===//

#include "lib/engine/StreamState.h"
#include "lib/engine/StreamTable.h"
#include "llvm/ADT/ArrayRef.h"
#include <gtest/gtest.h>

using namespace streamsafe;

namespace {

// Variables are numbered per function.
VarId var(unsigned N) { return N; }

// Stream ids past the three fixed ones, as a table would hand them out.
constexpr StreamId S3 = 3, S4 = 4, S5 = 5;

Access access(SiteId Site, StreamId Stream, uint64_t VisibleTo = 0,
              AccessMode Mode = AccessMode::Write) {
  Access A;
  A.Site = Site;
  A.Stream = Stream;
  A.VisibleTo = VisibleTo;
  A.Mode = Mode;
  return A;
}

StreamState reachable(StreamId Current = StreamTable::EntryCurrent,
                      SiteId SetAt = 1) {
  StreamState S;
  S.Reachable = true;
  S.Current = Current;
  S.CurrentSetAt = SetAt;
  return S;
}

// Changes the state of storage \p Id (created if absent) in place.
template <typename F> void edit(TensorMap &M, StorageId Id, F Change) {
  TensorState T = M.get(Id);
  Change(T);
  M.set(Id, std::move(T));
}

StreamState joined(StreamState A, const StreamState &B) {
  A.join(B);
  return A;
}

// A state with a bit of everything, for the algebraic properties.
StreamState sample(bool Variant) {
  StreamState S =
      reachable(Variant ? S3 : StreamTable::EntryCurrent, Variant ? 7 : 1);
  S.StreamVars[var(1)] = S3;
  S.StreamVars[var(2)] = Variant ? S4 : S5;
  S.TensorVars.set(var(10), 0);
  S.TensorVars.set(var(11), Variant ? 1 : 2);
  TensorState T;
  T.Writes = {access(20, S3, Variant ? StreamTable::bit(S4) : 0)};
  T.Reads = {access(21, S4, 0, AccessMode::Read)};
  if (Variant)
    T.Reads.push_back(access(25, S3, 0, AccessMode::Read));
  T.AllocStream = StreamTable::EntryCurrent;
  T.AllocSite = 19;
  S.Tensors.set(0, T);
  edit(S.Tensors, Variant ? 1 : 2, [](TensorState &U) { U.Escaped = true; });
  EventState &E = S.Events[var(30)];
  E.MustRecorded = E.MayRecorded = Variant;
  E.Covers = {{0, 20}};
  E.LastRecord = Variant ? 22 : NoSite;
  E.Declared = 18;
  S.Guards[var(40)] = {StreamTable::EntryCurrent, 1};
  if (Variant)
    S.Unrestored = {8};
  return S;
}

//===-- Join
//---------------------------------------------------------------===//

TEST(StreamStateJoin, UnreachableIsTheIdentity) {
  StreamState S = sample(true);
  EXPECT_EQ(joined(S, StreamState()), S);
  EXPECT_EQ(joined(StreamState(), S), S);
  StreamState Bottom;
  Bottom.join(StreamState());
  EXPECT_FALSE(Bottom.Reachable);
  EXPECT_EQ(Bottom, StreamState());
}

TEST(StreamStateJoin, IntersectsVisibleTo) {
  StreamState A = reachable(), B = reachable();
  edit(A.Tensors, 0, [](TensorState &T) {
    T.Writes = {access(5, S3, StreamTable::bit(S4) | StreamTable::bit(S5))};
  });
  edit(B.Tensors, 0, [](TensorState &T) {
    T.Writes = {access(5, S3, StreamTable::bit(S4))};
  });
  StreamState J = joined(A, B);
  ASSERT_EQ(J.Tensors.get(0).Writes.size(), 1u);
  // Made visible to S5 on one path only: a race on the other.
  EXPECT_EQ(J.Tensors.get(0).Writes[0].VisibleTo, StreamTable::bit(S4));
  EXPECT_TRUE(J.Tensors.get(0).Writes[0].visibleTo(S4));
  EXPECT_FALSE(J.Tensors.get(0).Writes[0].visibleTo(S5));
  EXPECT_TRUE(J.Tensors.get(0).Writes[0].visibleTo(S3)) << "its own stream";
}

TEST(StreamStateJoin, UnionsPendingAccessesSortedBySite) {
  StreamState A = reachable(), B = reachable();
  edit(A.Tensors, 0, [](TensorState &T) { T.Writes = {access(9, S3)}; });
  edit(A.Tensors, 0,
       [](TensorState &T) { T.Reads = {access(4, S4, 0, AccessMode::Read)}; });
  edit(B.Tensors, 0, [](TensorState &T) { T.Writes = {access(6, S5)}; });
  edit(B.Tensors, 0, [](TensorState &T) {
    T.Reads = {access(12, S3, 0, AccessMode::Read),
               access(4, S4, 0, AccessMode::Read)};
  });
  edit(B.Tensors, 0, [](TensorState &T) {
    T.CrossStreamUses = {access(12, S3, 0, AccessMode::Read)};
  });
  StreamState J = joined(A, B);
  const TensorState T = J.Tensors.get(0);
  ASSERT_EQ(T.Writes.size(), 2u);
  EXPECT_EQ(T.Writes[0].Site, 6u);
  EXPECT_EQ(T.Writes[1].Site, 9u);
  ASSERT_EQ(T.Reads.size(), 2u) << "site 4 is kept once";
  EXPECT_EQ(T.Reads[0].Site, 4u);
  EXPECT_EQ(T.Reads[1].Site, 12u);
  ASSERT_EQ(T.CrossStreamUses.size(), 1u);
  EXPECT_EQ(T.CrossStreamUses[0].Site, 12u);
}

TEST(StreamStateJoin, SameSiteOnDifferentStreamsBecomesUnknown) {
  StreamState A = reachable(), B = reachable();
  edit(A.Tensors, 0, [](TensorState &T) { T.Writes = {access(5, S3)}; });
  edit(B.Tensors, 0, [](TensorState &T) { T.Writes = {access(5, S4)}; });
  StreamState J = joined(A, B);
  ASSERT_EQ(J.Tensors.get(0).Writes.size(), 1u);
  EXPECT_EQ(J.Tensors.get(0).Writes[0].Stream, StreamTable::Unknown);
}

TEST(StreamStateJoin, TensorsOfOnePathAreKept) {
  StreamState A = reachable(), B = reachable();
  edit(A.Tensors, 0, [](TensorState &T) { T.Writes = {access(5, S3)}; });
  edit(B.Tensors, 1, [](TensorState &T) { T.Writes = {access(6, S4)}; });
  StreamState J = joined(A, B);
  EXPECT_EQ(J.Tensors.size(), 2u);
  EXPECT_EQ(J.Tensors.get(0), A.Tensors.get(0));
  EXPECT_EQ(J.Tensors.get(1), B.Tensors.get(1));
}

TEST(StreamStateJoin, AllocationStreamEscapeAndHost) {
  StreamState A = reachable(), B = reachable();
  auto Alloc = [](StreamId On, SiteId At) {
    return [=](TensorState &T) {
      T.AllocStream = On;
      T.AllocSite = At;
    };
  };
  edit(A.Tensors, 0, Alloc(S3, 7));
  edit(B.Tensors, 0, Alloc(S4, 8));
  edit(A.Tensors, 1, Alloc(S3, 7));
  edit(B.Tensors, 1, Alloc(S3, 7));
  edit(B.Tensors, 1, [](TensorState &T) { T.Escaped = true; });
  edit(A.Tensors, 1, [](TensorState &T) { T.Host = true; });
  // Made on one path only (a parameter's block on the other, no site): the
  // allocation is what is known of its pool, whichever side it is on.
  edit(A.Tensors, 2, Alloc(S3, 7));
  edit(B.Tensors, 2, [](TensorState &T) { T.Escaped = true; });
  edit(A.Tensors, 3, [](TensorState &T) { T.Escaped = true; });
  edit(B.Tensors, 3, Alloc(S4, 8));
  StreamState J = joined(A, B);
  EXPECT_EQ(J.Tensors.get(0).AllocStream, StreamTable::Unknown);
  EXPECT_EQ(J.Tensors.get(1).AllocStream, S3);
  EXPECT_TRUE(J.Tensors.get(1).Escaped) << "may escape";
  EXPECT_TRUE(J.Tensors.get(1).Host);
  EXPECT_FALSE(J.Tensors.get(0).Escaped);
  EXPECT_EQ(J.Tensors.get(2).AllocStream, S3);
  EXPECT_EQ(J.Tensors.get(2).AllocSite, SiteId(7));
  EXPECT_EQ(J.Tensors.get(3).AllocStream, S4);
  EXPECT_EQ(J.Tensors.get(3).AllocSite, SiteId(8));
}

TEST(StreamStateJoin, CurrentStream) {
  // Different streams: unknown, and no site to blame.
  StreamState J = joined(reachable(S3, 4), reachable(S4, 5));
  EXPECT_EQ(J.Current, StreamTable::Unknown);
  EXPECT_EQ(J.CurrentSetAt, NoSite);
  // Different current devices: unknown; another device's stream is known
  // only when both paths left the same one.
  StreamState A = reachable(S3, 4), B = reachable(S3, 4);
  A.CurrentDevice = 1;
  A.OtherDevices = {{EntryDevice, S4, 2}, {2, S5, 3}};
  B.OtherDevices = {{2, S5, 6}};
  J = joined(A, B);
  EXPECT_EQ(J.CurrentDevice, UnknownDevice);
  ASSERT_EQ(J.OtherDevices.size(), 2u);
  EXPECT_EQ(J.OtherDevices[0].Stream, StreamTable::Unknown);
  EXPECT_EQ(J.OtherDevices[1].Stream, S5);
  EXPECT_EQ(J.OtherDevices[1].SetAt, 3u);
  // Same stream set at two places: the earlier site, either way round.
  J = joined(reachable(S3, 9), reachable(S3, 5));
  EXPECT_EQ(J.Current, S3);
  EXPECT_EQ(J.CurrentSetAt, 5u);
  J = joined(reachable(S3, 5), reachable(S3, 9));
  EXPECT_EQ(J.CurrentSetAt, 5u);
}

TEST(StreamStateJoin, VariablesKeepOnlyAgreeingBindings) {
  StreamState A = reachable(), B = reachable();
  A.StreamVars = {{var(1), S3}, {var(2), S4}, {var(3), S5}};
  B.StreamVars = {{var(1), S3}, {var(2), S5}};
  A.TensorVars.set(var(10), 0);
  A.TensorVars.set(var(11), 1);
  B.TensorVars.set(var(10), 0);
  B.TensorVars.set(var(11), 2);
  A.Guards[var(20)] = {StreamTable::EntryCurrent, 1};
  B.Guards[var(20)] = {StreamTable::EntryCurrent, 1};
  A.Guards[var(21)] = {S3, 4};
  B.Guards[var(21)] = {S4, 4};
  StreamState J = joined(A, B);
  EXPECT_EQ(J.StreamVars, (std::map<VarId, StreamId>{{var(1), S3}}));
  EXPECT_EQ(J.TensorVars.size(), 1u);
  ASSERT_TRUE(J.TensorVars.lookup(var(10)));
  EXPECT_EQ(*J.TensorVars.lookup(var(10)), 0u);
  // Guards alive on both paths stay; one that saved different streams
  // restores an unknown one.
  ASSERT_EQ(J.Guards.size(), 2u);
  EXPECT_EQ(J.Guards.at(var(20)).Saved, StreamTable::EntryCurrent);
  EXPECT_EQ(J.Guards.at(var(21)).Saved, StreamTable::Unknown);
  EXPECT_EQ(J.Guards.at(var(21)).SavedSetAt, NoSite);
}

TEST(StreamStateJoin, UnrestoredIsAUnion) {
  StreamState A = reachable(), B = reachable();
  A.Unrestored = {3, 9};
  B.Unrestored = {5, 9};
  EXPECT_EQ(joined(A, B).Unrestored, (llvm::SmallVector<SiteId, 2>{3, 5, 9}));
  EXPECT_EQ(joined(B, A).Unrestored, (llvm::SmallVector<SiteId, 2>{3, 5, 9}));
  EXPECT_EQ(joined(A, reachable()).Unrestored,
            (llvm::SmallVector<SiteId, 2>{3, 9}));
  EXPECT_EQ(joined(reachable(), A).Unrestored,
            (llvm::SmallVector<SiteId, 2>{3, 9}));
}

//===-- Events
//-------------------------------------------------------------===//

EventState event(bool Recorded, llvm::ArrayRef<CoveredAccess> Covers = {},
                 SiteId Last = NoSite) {
  EventState E;
  E.MustRecorded = E.MayRecorded = Recorded;
  E.Covers.assign(Covers.begin(), Covers.end());
  E.LastRecord = Last;
  E.Declared = 2;
  return E;
}

// Puts a read at each of \p Sites in flight on storage \p Id.
void inFlight(StreamState &S, StorageId Id,
              std::initializer_list<SiteId> Sites) {
  edit(S.Tensors, Id, [&](TensorState &T) {
    for (SiteId Site : Sites)
      T.Reads.push_back(access(Site, S3, 0, AccessMode::Read));
  });
}

TEST(StreamStateJoinEvents, MustRecordedIsAndMayRecordedIsOr) {
  StreamState A = reachable(), B = reachable();
  inFlight(A, 0, {5});
  inFlight(B, 0, {5});
  A.Events[var(1)] = event(true, {{0, 5}}, 6);
  B.Events[var(1)] = event(false);
  A.Events[var(2)] = event(true, {}, 7);
  B.Events[var(2)] = event(true, {}, 8);
  A.Events[var(3)] = event(false);
  B.Events[var(3)] = event(false);
  for (const StreamState &J : {joined(A, B), joined(B, A)}) {
    const EventState &Some = J.Events.at(var(1));
    EXPECT_FALSE(Some.MustRecorded);
    EXPECT_TRUE(Some.MayRecorded);
    EXPECT_TRUE(Some.Covers.empty()) << "the unrecorded path covers nothing";
    EXPECT_EQ(Some.LastRecord, 6u);
    const EventState &Both = J.Events.at(var(2));
    EXPECT_TRUE(Both.MustRecorded);
    EXPECT_TRUE(Both.MayRecorded);
    EXPECT_EQ(Both.LastRecord, 8u) << "the later record";
    const EventState &None = J.Events.at(var(3));
    EXPECT_FALSE(None.MustRecorded);
    EXPECT_FALSE(None.MayRecorded);
  }
}

TEST(StreamStateJoinEvents, CoversOnlyWhatEveryPathCovers) {
  StreamState A = reachable(), B = reachable();
  for (StreamState *S : {&A, &B}) {
    inFlight(*S, 0, {5, 6});
    inFlight(*S, 1, {7});
    inFlight(*S, 2, {8});
  }
  A.Events[var(1)] = event(true, {{0, 5}, {0, 6}, {1, 7}}, 9);
  B.Events[var(1)] = event(true, {{0, 6}, {1, 7}, {2, 8}}, 9);
  StreamState J = joined(A, B);
  EXPECT_EQ(J.Events.at(var(1)).Covers,
            (llvm::SmallVector<CoveredAccess, 4>{{0, 6}, {1, 7}}));
  EXPECT_FALSE(J.Events.at(var(1)).CoversAll);
}

// `if (c) { ev.record(); } else { A.add_(1); ev.record(); }`: each path's
// record covers A's last write on that path; an access in flight on one
// path only needs only that path's record.
TEST(StreamStateJoinEvents, AccessesInFlightOnOnePathNeedOnlyItsRecord) {
  StreamState A = reachable(), B = reachable();
  inFlight(A, 0, {5});
  inFlight(B, 0, {6});
  inFlight(A, 1, {7}); // recorded before it on A: not covered
  A.Events[var(1)] = event(true, {{0, 5}}, 9);
  B.Events[var(1)] = event(true, {{0, 6}}, 10);
  for (const StreamState &J : {joined(A, B), joined(B, A)}) {
    const EventState &E = J.Events.at(var(1));
    EXPECT_EQ(E.Covers, (llvm::SmallVector<CoveredAccess, 4>{{0, 5}, {0, 6}}));
    EXPECT_FALSE(E.covers({1, 7}));
  }
}

// Recorded on an unknown stream (covers all) on one path, on a known one on
// the other: what both cover is the known record's covers.
EventState coversAll() {
  EventState E = event(true, {}, 9);
  E.CoversAll = true;
  return E;
}

TEST(StreamStateJoinEvents, CoversAllIsTheTopOfCovers) {
  StreamState Some = reachable(), All = reachable();
  Some.Events[var(1)] = event(true, {{0, 5}}, 9);
  All.Events[var(1)] = coversAll();
  StreamState J = joined(Some, All);
  const EventState &E = J.Events.at(var(1));
  EXPECT_FALSE(E.CoversAll);
  EXPECT_EQ(E.Covers, (llvm::SmallVector<CoveredAccess, 4>{{0, 5}}));
  EXPECT_TRUE(joined(All, All).Events.at(var(1)).CoversAll);
}

// Regression: join used to clear CoversAll before testing it, so
// CoversAll ⊔ Some covered nothing (and the join was not commutative).
TEST(StreamStateJoinEvents, CoversAllJoinedIntoIsTheTopOfCovers) {
  StreamState Some = reachable(), All = reachable();
  Some.Events[var(1)] = event(true, {{0, 5}}, 9);
  All.Events[var(1)] = coversAll();
  StreamState J = joined(All, Some);
  const EventState &E = J.Events.at(var(1));
  EXPECT_FALSE(E.CoversAll);
  EXPECT_EQ(E.Covers, (llvm::SmallVector<CoveredAccess, 4>{{0, 5}}));
  EXPECT_EQ(joined(All, Some), joined(Some, All));
}

TEST(StreamStateJoinEvents, EventOfOnePathIsDropped) {
  StreamState A = reachable(), B = reachable();
  A.Events[var(1)] = event(true, {{0, 5}}, 6);
  EXPECT_TRUE(joined(A, B).Events.empty());
  EXPECT_TRUE(joined(B, A).Events.empty());
}

//===-- Algebra on examples
//-------------------------------------------------===//

TEST(StreamStateJoinAlgebra, Idempotent) {
  for (bool V : {false, true}) {
    StreamState S = sample(V);
    EXPECT_EQ(joined(S, S), S);
    StreamState J = joined(sample(false), sample(true));
    EXPECT_EQ(joined(J, J), J);
  }
}

TEST(StreamStateJoinAlgebra, Commutative) {
  StreamState A = sample(false), B = sample(true);
  EXPECT_EQ(joined(A, B), joined(B, A));
  EXPECT_NE(joined(A, B), A);
  EXPECT_NE(joined(A, B), B);
}

TEST(StreamStateJoinAlgebra, AbsorbsWhatItJoined) {
  // J = A ⊔ B is an upper bound: joining A or B into it changes nothing.
  StreamState J = joined(sample(false), sample(true));
  EXPECT_EQ(joined(J, sample(false)), J);
  EXPECT_EQ(joined(J, sample(true)), J);
}

TEST(StreamStateJoinAlgebra, Associative) {
  StreamState A = sample(false), B = sample(true), C = reachable(S4, 3);
  edit(C.Tensors, 0, [](TensorState &T) {
    T.Writes = {access(20, S3, StreamTable::bit(S5))};
  });
  edit(C.Tensors, 3,
       [](TensorState &T) { T.Reads = {access(30, S5, 0, AccessMode::Read)}; });
  C.Unrestored = {2};
  EXPECT_EQ(joined(joined(A, B), C), joined(A, joined(B, C)));
}

TEST(StreamStateJoinAlgebra, ChainsStabilise) {
  // A loop head joins its entry state with the back edge's over and over;
  // the sequence must stop changing after one step when nothing new flows.
  StreamState Head = sample(false);
  StreamState Back = sample(true);
  StreamState Prev = Head;
  Head.join(Back);
  EXPECT_NE(Head, Prev);
  for (int I = 0; I < 3; ++I) {
    Prev = Head;
    Head.join(Back);
    EXPECT_EQ(Head, Prev) << "iteration " << I;
  }
}

TEST(StreamStateEquality, ComparesEveryComponent) {
  StreamState A = sample(false);
  auto Differs = [&](auto Change) {
    StreamState B = A;
    Change(B);
    return B != A;
  };
  EXPECT_TRUE(Differs([](StreamState &S) { S.Reachable = false; }));
  EXPECT_TRUE(Differs([](StreamState &S) { S.Current = S5; }));
  EXPECT_TRUE(Differs([](StreamState &S) { S.CurrentSetAt = 99; }));
  EXPECT_TRUE(Differs([](StreamState &S) { S.CurrentDevice = 1; }));
  EXPECT_TRUE(Differs([](StreamState &S) { S.OtherDevices = {{1, S3, 2}}; }));
  EXPECT_TRUE(Differs([](StreamState &S) {
    edit(S.Tensors, 0, [](TensorState &T) { T.Device = 1; });
  }));
  EXPECT_TRUE(Differs([](StreamState &S) { S.StreamVars.clear(); }));
  EXPECT_TRUE(Differs([](StreamState &S) { S.TensorVars.clear(); }));
  EXPECT_TRUE(Differs([](StreamState &S) {
    edit(S.Tensors, 0, [](TensorState &T) { T.Writes[0].VisibleTo = 1; });
  }));
  EXPECT_TRUE(Differs([](StreamState &S) {
    edit(S.Tensors, 0, [](TensorState &T) { T.Writes[0].StreamSetAt = 3; });
  }));
  EXPECT_TRUE(Differs([](StreamState &S) {
    edit(S.Tensors, 0, [](TensorState &T) { T.Writes[0].OnCurrent = true; });
  }));
  EXPECT_TRUE(Differs([](StreamState &S) {
    edit(S.Tensors, 0,
         [](TensorState &T) { T.CrossStreamUses = {access(1, S3)}; });
  }));
  EXPECT_TRUE(Differs([](StreamState &S) {
    edit(S.Tensors, 0, [](TensorState &T) { T.AllocSite = 1; });
  }));
  EXPECT_TRUE(Differs([](StreamState &S) { S.Events[var(30)].Covers = {}; }));
  EXPECT_TRUE(Differs([](StreamState &S) { S.Guards.clear(); }));
  EXPECT_TRUE(Differs([](StreamState &S) { S.Unrestored = {4}; }));
  EXPECT_TRUE(Differs([](StreamState &S) { S.ThreadStart = 4; }));
  EXPECT_TRUE(Differs([](StreamState &S) { S.SpawnerStream = S4; }));
  EXPECT_TRUE(Differs([](StreamState &S) { S.SpawnerSetAt = 4; }));
  EXPECT_FALSE(Differs([](StreamState &) {}));
}

TEST(JoinAccesses, KeepsOneEntryPerSite) {
  AccessList Into = {access(3, S3, StreamTable::bit(S4))};
  AccessList From = {access(3, S3, StreamTable::bit(S4) | StreamTable::bit(S5)),
                     access(1, S4)};
  joinAccesses(Into, From);
  ASSERT_EQ(Into.size(), 2u);
  EXPECT_EQ(Into[0].Site, 1u);
  EXPECT_EQ(Into[1].Site, 3u);
  EXPECT_EQ(Into[1].VisibleTo, StreamTable::bit(S4));
}

//===-- Streams as symbols
//--------------------------------------------------===//

TEST(StreamTable, FixedSymbols) {
  StreamTable T;
  EXPECT_EQ(T.kind(StreamTable::Default), StreamKind::Default);
  EXPECT_EQ(T.kind(StreamTable::EntryCurrent), StreamKind::EntryCurrent);
  EXPECT_EQ(T.get(StreamKind::Default, 0), StreamTable::Default);
  EXPECT_EQ(T.get(StreamKind::EntryCurrent, 0), StreamTable::EntryCurrent);
  EXPECT_EQ(T.get(StreamKind::Unknown, 7), StreamTable::Unknown);
  EXPECT_EQ(T.kind(StreamTable::Unknown), StreamKind::Unknown);
  EXPECT_EQ(T.describe(StreamTable::Default).Named, NoVar);
}

TEST(StreamTable, OneSymbolPerKey) {
  StreamTable T;
  const uint64_t K1 = 1, K2 = 2;
  StreamId A = T.get(StreamKind::Pool, K1);
  StreamId B = T.get(StreamKind::Pool, K2);
  EXPECT_NE(A, B);
  EXPECT_EQ(T.get(StreamKind::Pool, K1), A);
  EXPECT_GT(A, StreamTable::EntryCurrent);
  EXPECT_EQ(T.describe(A).Kind, StreamKind::Pool);
  EXPECT_EQ(T.describe(A).Named, NoVar);
}

TEST(StreamTable, RunsOutOfBitsIntoUnknown) {
  StreamTable T;
  std::vector<uint64_t> Keys(StreamTable::MaxStreams + 4);
  for (unsigned I = 0; I < Keys.size(); ++I)
    Keys[I] = 100 + I;
  StreamId Last = StreamTable::Unknown;
  unsigned Named = 0;
  for (uint64_t K : Keys) {
    StreamId Id = T.get(StreamKind::Pool, K);
    if (Id == StreamTable::Unknown)
      continue;
    ++Named;
    Last = Id;
    EXPECT_LT(Id, StreamTable::MaxStreams) << "must fit a 64-bit mask";
  }
  EXPECT_EQ(Named, StreamTable::MaxStreams - 3);
  EXPECT_EQ(Last, StreamTable::MaxStreams - 1);
  EXPECT_EQ(T.get(StreamKind::Pool, Keys.back()), StreamTable::Unknown);
}

TEST(StreamTable, KnownDistinct) {
  StreamTable T;
  const uint64_t K[6] = {1, 2, 3, 4, 5, 6};
  StreamId Pool1 = T.get(StreamKind::Pool, K[0]);
  StreamId Pool2 = T.get(StreamKind::Pool, K[1]);
  StreamId Param = T.get(StreamKind::Parameter, K[2]);
  StreamId Other = T.get(StreamKind::Other, K[3]);
  StreamId Other2 = T.get(StreamKind::Other, K[4]);
  StreamId Exec = T.get(StreamKind::Executor, K[5]);
  const StreamId Unknown = StreamTable::Unknown, Default = StreamTable::Default,
                 Entry = StreamTable::EntryCurrent;

  // Never the same symbol, never an unknown stream.
  for (StreamId S : {Unknown, Default, Entry, Pool1, Param, Other, Exec}) {
    EXPECT_FALSE(T.knownDistinct(S, S)) << S;
    EXPECT_FALSE(T.knownDistinct(S, Unknown)) << S;
    EXPECT_FALSE(T.knownDistinct(Unknown, S)) << S;
  }
  // A pool stream (or an executor's) differs from every other named stream.
  for (StreamId S : {Default, Entry, Pool2, Param, Other, Exec}) {
    EXPECT_TRUE(T.knownDistinct(Pool1, S)) << S;
    EXPECT_TRUE(T.knownDistinct(S, Pool1)) << S;
  }
  for (StreamId S : {Default, Entry, Param, Other}) {
    EXPECT_TRUE(T.knownDistinct(Exec, S)) << S;
    EXPECT_TRUE(T.knownDistinct(S, Exec)) << S;
  }
  // Anything else may alias: the caller's current stream may be the default
  // stream, a parameter may be the current stream, two members may be one.
  EXPECT_FALSE(T.knownDistinct(Default, Entry));
  EXPECT_FALSE(T.knownDistinct(Entry, Default));
  EXPECT_FALSE(T.knownDistinct(Param, Entry));
  EXPECT_FALSE(T.knownDistinct(Param, Default));
  EXPECT_FALSE(T.knownDistinct(Other, Param));
  EXPECT_FALSE(T.knownDistinct(Other, Other2));
  EXPECT_FALSE(T.knownDistinct(Other, Default));
}

TEST(StreamTable, KnownDistinctHeldAndSideStreams) {
  StreamTable T;
  // Keys of variables: a raw small key could be a device's
  // (keyOf(KeySpace::Device, 1) is 7).
  StreamId Member = T.get(StreamKind::Member, keyOf(KeySpace::Var, 1));
  StreamId Member2 = T.get(StreamKind::Member, keyOf(KeySpace::Var, 2));
  StreamId Attr = T.get(StreamKind::Attribute, keyOf(KeySpace::Var, 3));
  StreamId Global = T.get(StreamKind::Global, keyOf(KeySpace::Var, 4));
  StreamId Side = T.get(StreamKind::SideParameter, keyOf(KeySpace::Var, 5));
  StreamId Param = T.get(StreamKind::Parameter, keyOf(KeySpace::Var, 6));
  StreamId Other = T.get(StreamKind::Other, keyOf(KeySpace::Var, 7));
  StreamId Pool = T.get(StreamKind::Pool, keyOf(KeySpace::Var, 8));
  StreamId Dev1 = T.deviceCurrent(1);
  const StreamId Default = StreamTable::Default,
                 Entry = StreamTable::EntryCurrent;
  // A member only ever given fresh streams is not the caller's current
  // stream, the default stream, another such member or a pool stream.
  for (StreamId H : {Member, Attr, Global})
    for (StreamId S : {Default, Entry, Dev1, Pool, Member2}) {
      EXPECT_TRUE(T.knownDistinct(H, S)) << H << " " << S;
      EXPECT_TRUE(T.knownDistinct(S, H)) << H << " " << S;
    }
  EXPECT_TRUE(T.knownDistinct(Member, Attr));
  EXPECT_TRUE(T.knownDistinct(Global, Member));
  // ... but may be what a parameter or an unknown call hands over.
  for (StreamId H : {Member, Attr, Global})
    for (StreamId S : {Param, Other, Side}) {
      EXPECT_FALSE(T.knownDistinct(H, S)) << H << " " << S;
      EXPECT_FALSE(T.knownDistinct(S, H)) << H << " " << S;
    }
  // A side-stream parameter differs from the caller's current stream only.
  EXPECT_TRUE(T.knownDistinct(Side, Entry));
  EXPECT_TRUE(T.knownDistinct(Entry, Side));
  EXPECT_TRUE(T.knownDistinct(Side, Dev1));
  EXPECT_FALSE(T.knownDistinct(Side, Default));
  EXPECT_FALSE(T.knownDistinct(Side, Param));
  EXPECT_FALSE(T.knownDistinct(Side, Other));
  EXPECT_TRUE(T.knownDistinct(Side, Pool)); // the pool stream is fresh
}

TEST(StreamTable, CurrentStreamsOfTwoKnownDevicesAreDistinct) {
  StreamTable T;
  StreamId Dev0 = T.deviceCurrent(0), Dev1 = T.deviceCurrent(1);
  EXPECT_EQ(T.deviceCurrent(0), Dev0); // one symbol per device
  EXPECT_EQ(T.kind(Dev1), StreamKind::EntryCurrent);
  EXPECT_EQ(T.describe(Dev1).Device, 1);
  EXPECT_TRUE(T.knownDistinct(Dev0, Dev1));
  EXPECT_TRUE(T.knownDistinct(Dev1, Dev0));
  // The caller's device may be either: its stream may be theirs.
  StreamId Param = T.get(StreamKind::Parameter, 1);
  for (StreamId S : {StreamTable::EntryCurrent, StreamTable::Default, Param}) {
    EXPECT_FALSE(T.knownDistinct(Dev0, S)) << S;
    EXPECT_FALSE(T.knownDistinct(S, Dev1)) << S;
  }
  // A pool stream still differs from every named stream.
  EXPECT_TRUE(T.knownDistinct(T.get(StreamKind::Pool, 2), Dev0));
}

TEST(StreamTable, DescribesByKindAndFirstName) {
  StreamTable T;
  StreamId E = T.get(StreamKind::Executor, 1);
  StreamId P = T.get(StreamKind::Parameter, 2);
  EXPECT_EQ(T.describe(E).Kind, StreamKind::Executor);
  EXPECT_EQ(T.describe(P).Kind, StreamKind::Parameter);
  T.nameBy(P, 7);
  T.nameBy(P, 8); // the first variable names it
  EXPECT_EQ(T.describe(P).Named, 7u);
  T.nameBy(StreamTable::Unknown, 3); // fixed symbols keep no name
  T.nameBy(StreamTable::Default, 3);
  EXPECT_EQ(T.describe(StreamTable::Unknown).Named, NoVar);
  EXPECT_EQ(T.describe(StreamTable::Default).Named, NoVar);
}

} // namespace
