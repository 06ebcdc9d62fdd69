//===--- StreamRulesTest.cpp - Stream rules of lib/lower -----------------===//
//
// The rules of lib/lower that decide what a stream kept by an object is
// (HeldStreams.h), which method opens a section (StreamSections.h), who
// may leave a stream set (LeavesStreamSet.h), where a collective runs
// (Collectives.h) and what records, waits and syncs mean (SyncCalls.h),
// apart from either front end.
//
//===----------------------------------------------------------------------===//

#include "lib/lower/Collectives.h"
#include "lib/lower/HeldStreams.h"
#include "lib/lower/LeavesStreamSet.h"
#include "lib/lower/StreamSections.h"
#include "lib/lower/SyncCalls.h"
#include <gtest/gtest.h>
#include <vector>

using namespace streamsafe;
using namespace streamsafe::lower;

namespace {

HeldStreamWrite write(StreamGiven G, bool AtConstruction = false) {
  return {G, AtConstruction};
}

} // namespace

TEST(HeldStreams, FreshOrNothingAndOneFreshIsProven) {
  std::vector<HeldStreamWrite> W{write(StreamGiven::Nothing),
                                 write(StreamGiven::Fresh)};
  EXPECT_EQ(freshProof(W), 1u);
  EXPECT_EQ(freshProof({write(StreamGiven::Nothing)}), std::nullopt);
  EXPECT_EQ(freshProof({}), std::nullopt);
}

TEST(HeldStreams, AnyOtherWriteDisprovesIt) {
  EXPECT_EQ(
      freshProof({write(StreamGiven::Fresh, true), write(StreamGiven::Other)}),
      std::nullopt);
}

TEST(HeldStreams, TheNoteNamesTheConstructionFirst) {
  std::vector<HeldStreamWrite> W{write(StreamGiven::Fresh),
                                 write(StreamGiven::Fresh, true),
                                 write(StreamGiven::Fresh, true)};
  EXPECT_EQ(freshProof(W), 1u);
  EXPECT_EQ(freshProof({write(StreamGiven::Fresh), write(StreamGiven::Fresh)}),
            0u);
}

TEST(StreamSections, AnOpenerSavesWhatItsClassSetsBack) {
  int Begin = 0, End = 0, Other = 0;
  StreamSections C;
  C.add(&Begin, {{"saved"}, {"side"}});
  C.add(&End, {{}, {"saved"}});
  C.add(&Other, {{}, {""}});
  EXPECT_TRUE(C.opens(&Begin));
  EXPECT_FALSE(C.opens(&End)); // it sets only the saved stream back
  EXPECT_FALSE(C.opens(&Other));
  EXPECT_TRUE(C.savesCurrent("saved"));
  EXPECT_FALSE(C.savesCurrent("side"));
}

TEST(StreamSections, NoPartnerNoSection) {
  int Begin = 0;
  StreamSections C;
  C.add(&Begin, {{"saved"}, {""}});
  EXPECT_FALSE(C.opens(&Begin)); // nothing sets `saved` back
}

TEST(LeavesStreamSet, AForwarderIsExcusedUnlessItKeepsTheCurrentStream) {
  LeaveSetEvidence E;
  EXPECT_FALSE(mayLeaveStreamSet(E));
  E.ForwardsParameters = true;
  EXPECT_TRUE(mayLeaveStreamSet(E));
  E.ReadsCurrent = true;
  EXPECT_FALSE(mayLeaveStreamSet(E));
  E.GuardMember = true;
  EXPECT_TRUE(mayLeaveStreamSet(E));
}

TEST(Collectives, AFollowedHandleRunsOnTheGroupsStream) {
  CollectiveCall C;
  C.Mode = CollectiveMode::Async;
  C.Use = WorkUse::Bound;
  C.Group = {StreamRef::Collective, 3, 3};
  C.Ready = 7;
  C.Reads.push_back({TensorRef(), 1});
  LoweredCollective L = lowerCollective(C);
  EXPECT_TRUE(L.Handle);
  EXPECT_EQ(L.On.K, StreamRef::Collective);
  // The group waits for the current stream, then reads and holds the input.
  ASSERT_EQ(L.Steps.size(), 5u);
  EXPECT_EQ(L.Steps[0].Kind, SiteKind::EventDecl);
  EXPECT_EQ(L.Steps[2].Kind, SiteKind::EventWait);
  EXPECT_EQ(L.Steps[3].Kind, SiteKind::Access);
  EXPECT_EQ(L.Steps[4].Kind, SiteKind::Other);
}

TEST(Collectives, AHandleHandedOnIsOrderedOnTheCurrentStream) {
  CollectiveCall C;
  C.Mode = CollectiveMode::Async;
  C.Use = WorkUse::HandedOn;
  C.Group = {StreamRef::Collective, 3, 3};
  C.Writes.push_back({TensorRef(), 1});
  LoweredCollective L = lowerCollective(C);
  EXPECT_FALSE(L.Handle);
  EXPECT_EQ(L.On.K, StreamRef::current().K);
  ASSERT_EQ(L.Steps.size(), 1u); // the write, no wait, no hold
}

TEST(Collectives, AGroupNotNamedOrAnUnreadFlagIsAStreamNotKnown) {
  CollectiveCall C;
  C.Mode = CollectiveMode::Async;
  C.Use = WorkUse::Dropped;
  EXPECT_EQ(lowerCollective(C).On.K, StreamRef::Unknown);
  C.Mode = CollectiveMode::Unknown;
  C.Group = {StreamRef::Collective, 3, 3};
  EXPECT_EQ(lowerCollective(C).On.K, StreamRef::Unknown);
  EXPECT_FALSE(lowerCollective(C).Handle);
}

TEST(SyncCalls, AnOmittedStreamIsTheRuntimesOrTheCurrentOne) {
  EXPECT_EQ(omittedStream(ApiEffect::RawEventRecord).K, StreamRef::legacy().K);
  EXPECT_EQ(omittedStream(ApiEffect::EventRecord).K, StreamRef::current().K);
}

TEST(SyncCalls, WaitStreamIsARecordTheWaiterWaitsOn) {
  SyncCall C;
  C.Effect = ApiEffect::StreamWaitEvent;
  C.Stream = StreamRef::current();
  C.Awaited = StreamRef::legacy();
  C.AwaitedEvent = 4;
  C.AtAwaited = 1;
  std::optional<Recipe> R = syncCallSteps(C);
  ASSERT_TRUE(R);
  ASSERT_EQ(R->size(), 3u);
  EXPECT_EQ((*R)[1].Kind, SiteKind::EventRecord);
  EXPECT_EQ((*R)[1].At, 1u);
  EXPECT_EQ((*R)[2].Kind, SiteKind::EventWait);
}

TEST(SyncCalls, OtherEffectsMakeNoSteps) {
  SyncCall C;
  C.Effect = ApiEffect::TensorOp;
  EXPECT_FALSE(syncCallSteps(C));
  C.Effect = ApiEffect::DeviceSynchronize;
  ASSERT_TRUE(syncCallSteps(C));
  EXPECT_EQ(syncCallSteps(C)->size(), 1u);
}
