//===--- SyncCalls.cpp - Records, waits and synchronizations to facts -----===//

#include "lib/lower/SyncCalls.h"

namespace streamsafe::lower {

StreamRef omittedStream(ApiEffect E) {
  switch (E) {
  case ApiEffect::RawEventRecord:
  case ApiEffect::RawStreamWaitEvent:
  case ApiEffect::StreamSyncFunction:
    return StreamRef::legacy();
  default:
    return StreamRef::current();
  }
}

std::optional<Recipe> syncCallSteps(const SyncCall &C) {
  Recipe R;
  switch (C.Effect) {
  case ApiEffect::EventRecord:
  case ApiEffect::ConfiguredEventRecord:
  case ApiEffect::RawEventRecord:
    R.push_back({C.AtCall, SiteKind::EventRecord,
                 fact::EventRecord{C.Event, C.Stream}});
    return R;
  case ApiEffect::EventBlock:
  case ApiEffect::ConfiguredEventWait:
  case ApiEffect::StreamWaitEvent:
  case ApiEffect::RawStreamWaitEvent: {
    if (C.Awaited) {
      R.push_back({C.AtCall, SiteKind::EventDecl,
                   fact::BindEvent{C.AwaitedEvent, true}});
      R.push_back({C.AtAwaited, SiteKind::EventRecord,
                   fact::EventRecord{C.AwaitedEvent, *C.Awaited}});
      R.push_back({C.AtCall, SiteKind::EventWait,
                   fact::EventWait{C.AwaitedEvent, C.Stream, false}});
      return R;
    }
    fact::EventWait W{C.Event, C.Stream, C.RecordedLaterInLoop};
    W.External = C.External;
    R.push_back({C.AtCall, SiteKind::EventWait, W});
    return R;
  }
  case ApiEffect::EventSynchronize:
  case ApiEffect::ConfiguredEventSync:
  case ApiEffect::RawEventSynchronize:
    R.push_back({C.AtCall, SiteKind::Other, fact::EventSync{C.Event}});
    return R;
  case ApiEffect::StreamSynchronize:
  case ApiEffect::StreamSyncFunction:
  case ApiEffect::ConfiguredStreamSync: {
    fact::StreamSync S;
    S.Stream = C.Stream;
    R.push_back({C.AtCall, SiteKind::Other, S});
    return R;
  }
  case ApiEffect::DeviceSynchronize:
    R.push_back({C.AtCall, SiteKind::Other, fact::DeviceSync{}});
    return R;
  default:
    return std::nullopt;
  }
}

} // namespace streamsafe::lower
