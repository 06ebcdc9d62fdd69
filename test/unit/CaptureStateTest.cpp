//===--- CaptureStateTest.cpp - lib/engine/CaptureState -------------------===//
//
// The capture part of the lattice on hand-built states: a wait on an event
// recorded on a capturing stream forks the waiting stream in; work on a
// forked stream is a tail until the capturing stream waits on an event
// recorded after it (directly or through another forked stream); where
// paths meet, membership is what every path has, tails what any path has,
// and a capture on one path only is not followed.
//
//===----------------------------------------------------------------------===//

#include "lib/engine/CaptureState.h"
#include "lib/engine/StreamState.h"
#include <gtest/gtest.h>

using namespace streamsafe;

namespace {

// Stream ids past the three fixed ones: the capturing stream and two side
// streams.
constexpr StreamId Cap = 3, Side = 4, Other = 5;
constexpr VarId Fork = 0, Join = 1, Unfollowed = 2;

CaptureState capturing(SiteId At = 10) {
  CaptureState C;
  C.begin(At, Cap, CaptureMode::Global);
  return C;
}

// Forks Side into \p C with event Fork, then does work on it at \p Work.
void forkAndWork(CaptureState &C, SiteId Work = 13) {
  C.record(Fork, Cap, 11);
  C.wait(Fork, /*Followed=*/true, Side, 12);
  C.work(Side, Work);
}

TEST(CaptureStateTest, BeginMakesTheCapturingStreamTheOnlyMember) {
  CaptureState C = capturing();
  EXPECT_TRUE(C.active());
  EXPECT_TRUE(C.member(Cap));
  EXPECT_FALSE(C.mayBeMember(Side));
  EXPECT_TRUE(C.Tails.empty());
}

TEST(CaptureStateTest, WaitOnACaptureEventForks) {
  CaptureState C = capturing();
  forkAndWork(C);
  EXPECT_TRUE(C.member(Side));
  ASSERT_EQ(C.Forks.count(Side), 1u);
  EXPECT_EQ(C.Forks.at(Side), 12u);
  ASSERT_EQ(C.Tails.size(), 1u);
  EXPECT_EQ(C.Tails[0].Site, 13u);
  // Newer work on the same stream replaces the tail.
  C.work(Side, 14);
  ASSERT_EQ(C.Tails.size(), 1u);
  EXPECT_EQ(C.Tails[0].Site, 14u);
  // Work on the capturing stream itself is no tail.
  C.work(Cap, 15);
  EXPECT_EQ(C.Tails.size(), 1u);
}

TEST(CaptureStateTest, JoinBackClearsTheTail) {
  CaptureState C = capturing();
  forkAndWork(C);
  C.record(Join, Side, 14);
  C.wait(Join, true, Cap, 15);
  EXPECT_TRUE(C.Tails.empty());
}

TEST(CaptureStateTest, RecordBeforeTheWorkDoesNotJoinIt) {
  CaptureState C = capturing();
  C.record(Fork, Cap, 11);
  C.wait(Fork, true, Side, 12);
  C.record(Join, Side, 13);
  C.work(Side, 14);
  C.wait(Join, true, Cap, 15);
  ASSERT_EQ(C.Tails.size(), 1u);
  EXPECT_EQ(C.Tails[0].Site, 14u);
}

TEST(CaptureStateTest, JoinThroughAnotherForkedStream) {
  CaptureState C = capturing();
  forkAndWork(C, 13);            // Side works
  C.wait(Fork, true, Other, 14); // Other forked too
  C.record(Join, Side, 15);
  C.wait(Join, true, Other, 16); // Other waits for Side
  constexpr VarId OtherDone = 3;
  C.record(OtherDone, Other, 17);
  C.wait(OtherDone, true, Cap, 18); // the capturing stream waits for Other
  EXPECT_TRUE(C.Tails.empty());
}

TEST(CaptureStateTest, EventsFromBeforeTheCaptureDoNotFork) {
  CaptureState C = capturing();
  // Followed, but recorded before the capture began: not in Records.
  C.wait(Fork, true, Side, 12);
  EXPECT_FALSE(C.mayBeMember(Side));
  C.work(Side, 13);
  EXPECT_TRUE(C.Tails.empty());
}

TEST(CaptureStateTest, UnfollowedWaitsAreAssumedToJoin) {
  CaptureState C = capturing();
  forkAndWork(C);
  // A stream that waits on an event the analysis does not follow may be in
  // the capture; the capturing stream waiting on one may be joined.
  C.wait(Unfollowed, false, Other, 14);
  EXPECT_TRUE(C.mayBeMember(Other));
  EXPECT_FALSE(C.member(Other));
  C.wait(Unfollowed, false, Cap, 15);
  EXPECT_TRUE(C.Tails.empty());
}

TEST(CaptureStateTest, JoinKeepsMembersOfEveryPathAndTailsOfAnyPath) {
  CaptureState Forked = capturing();
  forkAndWork(Forked);
  CaptureState Joined = Forked;
  Joined.record(Join, Side, 14);
  Joined.wait(Join, true, Cap, 15);
  CaptureState NotForked = capturing();

  CaptureState A = Joined;
  A.join(Forked);
  ASSERT_EQ(A.Tails.size(), 1u) << "unjoined on one path";
  EXPECT_TRUE(A.member(Side));

  CaptureState B = Forked;
  B.join(NotForked);
  EXPECT_FALSE(B.member(Side));
  EXPECT_TRUE(B.mayBeMember(Side));
  EXPECT_EQ(B.Tails.size(), 1u);
}

TEST(CaptureStateTest, CaptureOnSomePathsOnlyIsUnsure) {
  CaptureState C = capturing();
  C.join(CaptureState());
  EXPECT_FALSE(C.active());
  EXPECT_TRUE(C.Unsure);
  // Two different captures meeting are not followed either.
  CaptureState D = capturing(10);
  D.join(capturing(20));
  EXPECT_FALSE(D.active());
  // A new capture starts afresh.
  C.begin(30, Cap, CaptureMode::Relaxed);
  EXPECT_TRUE(C.active());
  EXPECT_EQ(C.Mode, CaptureMode::Relaxed);
}

TEST(CaptureStateTest, NoCaptureJoinsToNoCapture) {
  CaptureState C;
  C.join(CaptureState());
  EXPECT_FALSE(C.active());
  EXPECT_FALSE(C.Unsure);
  EXPECT_TRUE(C == CaptureState());
}

TEST(CaptureStateTest, StreamStateJoinJoinsTheCapture) {
  StreamState A, B;
  A.Reachable = B.Reachable = true;
  A.Capture = capturing();
  forkAndWork(A.Capture);
  B.Capture = A.Capture;
  B.Capture.record(Join, Side, 14);
  B.Capture.wait(Join, true, Cap, 15);
  EXPECT_NE(A, B);
  A.join(B);
  EXPECT_TRUE(A.Capture.active());
  EXPECT_EQ(A.Capture.Tails.size(), 1u);
  // Joining a state into itself changes nothing.
  StreamState Copy = A;
  A.join(Copy);
  EXPECT_EQ(A, Copy);
}

TEST(CaptureStateTest, UnknownCapturingStreamReportsNothingOutside) {
  CaptureState C;
  C.begin(10, StreamTable::Unknown, CaptureMode::Global);
  EXPECT_TRUE(C.mayBeMember(Side));
  EXPECT_FALSE(C.member(Side));
}

} // namespace
