//===--- JoinedStreams.cpp - Whether users can wait for a held stream -----===//

#include "lib/lower/JoinedStreams.h"

namespace streamsafe::lower {

bool joinsForUsers(HeldStreamUse U) {
  switch (U) {
  case HeldStreamUse::Bind:
  case HeldStreamUse::Test:
  case HeldStreamUse::Enter:
  case HeldStreamUse::Waits:
  case HeldStreamUse::Records:
  case HeldStreamUse::EventKeptAside:
    return false;
  case HeldStreamUse::EventToWait:
  case HeldStreamUse::WaitedFor:
  case HeldStreamUse::Synchronized:
  case HeldStreamUse::HandedOn:
    return true;
  }
  return true;
}

} // namespace streamsafe::lower
