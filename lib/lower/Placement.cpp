//===--- Placement.cpp - Where a new tensor's memory lives ----------------===//

#include "lib/lower/Placement.h"
#include <algorithm>

namespace streamsafe {

static unsigned rank(PlacementStatement::Device D) {
  switch (D) {
  case PlacementStatement::Device::Unstated:
    return 0;
  case PlacementStatement::Device::Host:
    return 1;
  case PlacementStatement::Device::Cuda:
  case PlacementStatement::Device::Unreadable:
    return 2;
  }
  return 2;
}

void PlacementStatement::add(const PlacementStatement &Other) {
  if (rank(Other.D) > rank(D))
    D = Other.D;
  P = std::max(P, Other.P);
}

Placement placementOf(const PlacementStatement &S, bool Like) {
  using D = PlacementStatement::Device;
  using P = PlacementStatement::Pin;
  if (S.D == D::Cuda || S.D == D::Unreadable)
    return Placement::Device;
  if (S.P == P::True || S.P == P::Unreadable)
    return Placement::PinnedHost;
  if (S.D == D::Host)
    return Placement::Host;
  return Like ? Placement::Source : Placement::Host;
}

} // namespace streamsafe
