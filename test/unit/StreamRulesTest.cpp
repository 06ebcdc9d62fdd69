//===--- StreamRulesTest.cpp - Held streams, sections, leaving set --------===//
//
// The rules of lib/lower that decide what a stream kept by an object is
// (HeldStreams.h), which method opens a section (StreamSections.h) and who
// may leave a stream set (LeavesStreamSet.h), apart from either front end.
//
//===----------------------------------------------------------------------===//

#include "lib/lower/HeldStreams.h"
#include "lib/lower/LeavesStreamSet.h"
#include "lib/lower/StreamSections.h"
#include <gtest/gtest.h>
#include <vector>

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
