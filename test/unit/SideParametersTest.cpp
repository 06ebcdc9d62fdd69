//===--- SideParametersTest.cpp - The side-parameter rule (lib/lower) -----===//

#include "lib/lower/SideParameters.h"
#include <gtest/gtest.h>
#include <vector>

using namespace streamsafe::lower;

namespace {

StreamUse use(StreamUse::Kind K, StreamRole Stream, uintptr_t Event = 0,
              StreamRole Awaited = StreamRole::Other) {
  StreamUse U;
  U.K = K;
  U.Stream = Stream;
  U.Event = Event;
  U.Awaited = Awaited;
  return U;
}

const StreamUse *ask(const std::vector<StreamUse> &Uses, ParameterFacts P = {},
                     bool GivenCurrent = false) {
  return sideStreamUse(Uses, P, [&] { return GivenCurrent; });
}

} // namespace

TEST(SideParameters, EnteringTheParameterProvesIt) {
  std::vector<StreamUse> Uses{
      use(StreamUse::Enter, StreamRole::Other),
      use(StreamUse::Enter, StreamRole::Parameter),
  };
  EXPECT_EQ(ask(Uses), &Uses[1]);
  EXPECT_EQ(ask({use(StreamUse::Enter, StreamRole::Current)}), nullptr);
}

TEST(SideParameters, WaitsBetweenItAndTheCurrentStreamProveIt) {
  std::vector<StreamUse> Uses{use(StreamUse::WaitStream, StreamRole::Current, 0,
                                  StreamRole::Parameter)};
  EXPECT_EQ(ask(Uses), &Uses[0]);
  EXPECT_EQ(ask({use(StreamUse::WaitStream, StreamRole::Parameter, 0,
                     StreamRole::Other)}),
            nullptr);
}

TEST(SideParameters, AnEventRecordedOnOneAndWaitedByTheOtherProvesIt) {
  // The record may follow the wait in the text (a loop).
  std::vector<StreamUse> Uses{
      use(StreamUse::WaitEvent, StreamRole::Parameter, 7),
      use(StreamUse::RecordEvent, StreamRole::Current, 7),
  };
  EXPECT_EQ(ask(Uses), &Uses[0]);
  // Another event, or both on the same side, or an unknown event: no.
  EXPECT_EQ(ask({use(StreamUse::RecordEvent, StreamRole::Current, 1),
                 use(StreamUse::WaitEvent, StreamRole::Parameter, 2)}),
            nullptr);
  EXPECT_EQ(ask({use(StreamUse::RecordEvent, StreamRole::Parameter, 1),
                 use(StreamUse::WaitEvent, StreamRole::Parameter, 1)}),
            nullptr);
  EXPECT_EQ(ask({use(StreamUse::RecordEvent, StreamRole::Current, 0),
                 use(StreamUse::WaitEvent, StreamRole::Parameter, 0)}),
            nullptr);
}

TEST(SideParameters, ADefaultARebindingOrACurrentArgumentUndoesIt) {
  std::vector<StreamUse> Uses{use(StreamUse::Enter, StreamRole::Parameter)};
  ParameterFacts Defaulted;
  Defaulted.Defaulted = true;
  ParameterFacts Rebound;
  Rebound.Rebound = true;
  EXPECT_EQ(ask(Uses, Defaulted), nullptr);
  EXPECT_EQ(ask(Uses, Rebound), nullptr);
  EXPECT_EQ(ask(Uses, {}, /*GivenCurrent=*/true), nullptr);
}

TEST(SideParameters, CallersAreSearchedOnlyWhenAUseIsFound) {
  bool Asked = false;
  std::vector<StreamUse> None{use(StreamUse::Enter, StreamRole::Other)};
  sideStreamUse(None, {}, [&] { return Asked = true; });
  EXPECT_FALSE(Asked);
}
