//===--- PlacementTest.cpp - Where a new tensor lives (lib/lower) ---------===//

#include "lib/lower/Placement.h"
#include <gtest/gtest.h>

using namespace streamsafe;

namespace {

PlacementStatement statement(PlacementStatement::Device D,
                             PlacementStatement::Pin P) {
  PlacementStatement S;
  S.D = D;
  S.P = P;
  return S;
}

using D = PlacementStatement::Device;
using P = PlacementStatement::Pin;

} // namespace

TEST(Placement, NoDeviceIsTheHostForAFactoryAndTheSourceForALike) {
  EXPECT_EQ(placementOf({}, /*Like=*/false), Placement::Host);
  EXPECT_EQ(placementOf({}, /*Like=*/true), Placement::Source);
  EXPECT_EQ(placementOf(statement(D::Host, P::Unstated), true),
            Placement::Host);
}

TEST(Placement, AnUnreadableDeviceIsADevice) {
  EXPECT_EQ(placementOf(statement(D::Unreadable, P::Unstated), false),
            Placement::Device);
  EXPECT_EQ(placementOf(statement(D::Cuda, P::True), false), Placement::Device);
}

TEST(Placement, AnUnreadablePinFlagIsPinnedAndFalseIsPageable) {
  EXPECT_EQ(placementOf(statement(D::Unstated, P::Unreadable), false),
            Placement::PinnedHost);
  EXPECT_EQ(placementOf(statement(D::Host, P::True), false),
            Placement::PinnedHost);
  EXPECT_EQ(placementOf(statement(D::Host, P::False), false), Placement::Host);
}

TEST(Placement, StatementsAddUpStrongestFirst) {
  PlacementStatement S = statement(D::Host, P::False);
  S.add(statement(D::Unstated, P::Unreadable));
  EXPECT_EQ(S.D, D::Host);
  EXPECT_EQ(S.P, P::Unreadable);
  S.add(statement(D::Cuda, P::Unstated));
  EXPECT_EQ(S.D, D::Cuda);
  S.add(statement(D::Host, P::True));
  EXPECT_EQ(S.D, D::Cuda);
  EXPECT_EQ(S.P, P::True);
}
