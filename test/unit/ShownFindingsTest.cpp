//===--- ShownFindingsTest.cpp - Which findings a run shows (lib/report) --===//

#include "lib/report/ShownFindings.h"
#include <gtest/gtest.h>

using namespace streamsafe::report;

namespace {

ShownFinding at(const char *Place, const char *Text, bool WithinHelper = false,
                const char *Check = "streamsafe-unsynchronized-access") {
  ShownFinding S;
  S.Place = Place;
  S.Check = Check;
  S.Text = Text;
  S.WithinHelper = WithinHelper;
  return S;
}

} // namespace

TEST(ShownFindings, OnePerPlaceCheckAndWording) {
  std::vector<ShownFinding> All{
      at("f.py:3:5", "tensor 'a' is read"),
      at("f.py:3:5", "tensor 'a' is read"),
      at("f.py:3:5", "tensor 'b' is read"),
      at("f.py:3:5", "tensor 'a' is read", false, "streamsafe-other"),
  };
  EXPECT_EQ(findingsToShow(All), (std::vector<size_t>{0, 2, 3}));
}

TEST(ShownFindings, TheHelpersOwnReportWinsOverItsCallers) {
  // Two callers find the helper's race, named by their variables; the
  // helper's own analysis reports it too, later in the order.
  std::vector<ShownFinding> All{
      at("h.py:9:5", "tensor 'x' is read", true),
      at("h.py:9:5", "tensor 'y' is read", true),
      at("h.py:9:5", "tensor 'buf' is read"),
  };
  EXPECT_EQ(findingsToShow(All), (std::vector<size_t>{2}));
}

TEST(ShownFindings, CallersReportOnceEachWhenTheHelperDoesNot) {
  std::vector<ShownFinding> All{
      at("h.py:9:5", "tensor 'x' is read", true),
      at("h.py:9:5", "tensor 'x' is read", true),
      at("h.py:9:5", "tensor 'y' is read", true),
  };
  EXPECT_EQ(findingsToShow(All), (std::vector<size_t>{0, 2}));
}

TEST(ShownFindings, ACallerOfAFunctionThatShowedItDoesNotShowItAgain) {
  // produce() reports scale()'s race at its call; main, running produce(),
  // finds it at its own call with the same origin.
  ShownFinding Inner = at("f.cpp:29", "tensor 'X' is read");
  Inner.ThroughCall = true;
  Inner.Origin = "f.cpp:20 X";
  ShownFinding Outer = at("f.cpp:34", "tensor 'X' is read");
  Outer.ThroughCall = true;
  Outer.Origin = "f.cpp:20 X";
  ShownFinding Other = Outer;
  Other.Origin = "f.cpp:21 Y";
  EXPECT_EQ(findingsToShow({Inner, Outer, Other}), (std::vector<size_t>{0, 2}));
}
