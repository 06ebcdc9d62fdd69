//===--- ApiEffect.cpp - Properties and names of the effects --------------===//

#include "lib/model/ApiEffect.h"

namespace streamsafe {

ApiEntry entryOf(ApiEffect E) {
  ApiEntry A{E};
  if (E == ApiEffect::TensorCopyFrom)
    A.Source = 0;
  if (E == ApiEffect::TensorRecordStream)
    A.Stream = 0;
  return A;
}

bool isTensorEffect(ApiEffect E) {
  switch (E) {
  case ApiEffect::TensorMetadata:
  case ApiEffect::TensorView:
  case ApiEffect::TensorViewList:
  case ApiEffect::TensorInPlace:
  case ApiEffect::TensorCopyFrom:
  case ApiEffect::TensorRecordStream:
  case ApiEffect::TensorReset:
  case ApiEffect::TensorHostRead:
  case ApiEffect::TensorToHost:
  case ApiEffect::TensorTo:
  case ApiEffect::TensorRawPointer:
  case ApiEffect::TensorPinMemory:
  case ApiEffect::TensorSizedByData:
  case ApiEffect::TensorOp:
    return true;
  default:
    return false;
  }
}

bool isTorchFunctionEffect(ApiEffect E) {
  switch (E) {
  case ApiEffect::AtenFactory:
  case ApiEffect::AtenFromBlob:
  case ApiEffect::AtenInPlace:
  case ApiEffect::AtenOutFirst:
  case ApiEffect::AtenOutLast:
  case ApiEffect::AtenOp:
  case ApiEffect::AtenSizedByData:
    return true;
  default:
    return false;
  }
}

bool isStreamEffect(ApiEffect E) {
  if (E == ApiEffect::None || E == ApiEffect::AtenNoTensor ||
      E == ApiEffect::TransparentCast || isTorchFunctionEffect(E))
    return false;
  // Of the tensor methods, only record_stream is about streams.
  return !isTensorEffect(E) || E == ApiEffect::TensorRecordStream;
}

bool isHostWaitEffect(ApiEffect E) {
  return E == ApiEffect::TensorHostRead || E == ApiEffect::TensorToHost ||
         E == ApiEffect::TensorSizedByData || E == ApiEffect::AtenSizedByData;
}

const char *effectName(ApiEffect E) {
  switch (E) {
  case ApiEffect::None:
    return "None";
  case ApiEffect::StreamFromPool:
    return "StreamFromPool";
  case ApiEffect::StreamCreate:
    return "StreamCreate";
  case ApiEffect::DefaultStream:
    return "DefaultStream";
  case ApiEffect::CurrentStream:
    return "CurrentStream";
  case ApiEffect::ExternalStream:
    return "ExternalStream";
  case ApiEffect::SetCurrentStream:
    return "SetCurrentStream";
  case ApiEffect::StreamIdentity:
    return "StreamIdentity";
  case ApiEffect::GuardResetStream:
    return "GuardResetStream";
  case ApiEffect::GuardReset:
    return "GuardReset";
  case ApiEffect::SetDevice:
    return "SetDevice";
  case ApiEffect::EventRecord:
    return "EventRecord";
  case ApiEffect::EventBlock:
    return "EventBlock";
  case ApiEffect::StreamWaitEvent:
    return "StreamWaitEvent";
  case ApiEffect::EventSynchronize:
    return "EventSynchronize";
  case ApiEffect::RawEventRecord:
    return "RawEventRecord";
  case ApiEffect::RawStreamWaitEvent:
    return "RawStreamWaitEvent";
  case ApiEffect::RawEventSynchronize:
    return "RawEventSynchronize";
  case ApiEffect::StreamSynchronize:
    return "StreamSynchronize";
  case ApiEffect::StreamSyncFunction:
    return "StreamSyncFunction";
  case ApiEffect::DeviceSynchronize:
    return "DeviceSynchronize";
  case ApiEffect::AllocatorRecordStream:
    return "AllocatorRecordStream";
  case ApiEffect::MemcpyAsync:
    return "MemcpyAsync";
  case ApiEffect::MemsetAsync:
    return "MemsetAsync";
  case ApiEffect::NcclOnStream:
    return "NcclOnStream";
  case ApiEffect::Collective:
    return "Collective";
  case ApiEffect::CollectiveAsync:
    return "CollectiveAsync";
  case ApiEffect::CollectiveFunctional:
    return "CollectiveFunctional";
  case ApiEffect::MemcpySync:
    return "MemcpySync";
  case ApiEffect::MemsetSync:
    return "MemsetSync";
  case ApiEffect::MemcpyAndSync:
    return "MemcpyAndSync";
  case ApiEffect::HostMemcpy:
    return "HostMemcpy";
  case ApiEffect::StreamOrdered:
    return "StreamOrdered";
  case ApiEffect::CaptureBegin:
    return "CaptureBegin";
  case ApiEffect::CaptureEnd:
    return "CaptureEnd";
  case ApiEffect::GraphReplay:
    return "GraphReplay";
  case ApiEffect::GraphInstantiate:
    return "GraphInstantiate";
  case ApiEffect::RestrictedAllocation:
    return "RestrictedAllocation";
  case ApiEffect::RestrictedEventQuery:
    return "RestrictedEventQuery";
  case ApiEffect::RestrictedStreamQuery:
    return "RestrictedStreamQuery";
  case ApiEffect::CaptureModeExchange:
    return "CaptureModeExchange";
  case ApiEffect::SpawnThread:
    return "SpawnThread";
  case ApiEffect::ParallelLoop:
    return "ParallelLoop";
  case ApiEffect::HostWait:
    return "HostWait";
  case ApiEffect::HostSignal:
    return "HostSignal";
  case ApiEffect::HostSignalAndWait:
    return "HostSignalAndWait";
  case ApiEffect::HostWaitAny:
    return "HostWaitAny";
  case ApiEffect::GradMode:
    return "GradMode";
  case ApiEffect::CaptureRegion:
    return "CaptureRegion";
  case ApiEffect::TensorMetadata:
    return "TensorMetadata";
  case ApiEffect::TensorView:
    return "TensorView";
  case ApiEffect::TensorViewList:
    return "TensorViewList";
  case ApiEffect::TensorInPlace:
    return "TensorInPlace";
  case ApiEffect::TensorCopyFrom:
    return "TensorCopyFrom";
  case ApiEffect::TensorRecordStream:
    return "TensorRecordStream";
  case ApiEffect::TensorReset:
    return "TensorReset";
  case ApiEffect::TensorHostRead:
    return "TensorHostRead";
  case ApiEffect::TensorToHost:
    return "TensorToHost";
  case ApiEffect::TensorTo:
    return "TensorTo";
  case ApiEffect::TensorRawPointer:
    return "TensorRawPointer";
  case ApiEffect::TensorPinMemory:
    return "TensorPinMemory";
  case ApiEffect::TensorSizedByData:
    return "TensorSizedByData";
  case ApiEffect::TensorOp:
    return "TensorOp";
  case ApiEffect::AtenFactory:
    return "AtenFactory";
  case ApiEffect::AtenFromBlob:
    return "AtenFromBlob";
  case ApiEffect::AtenInPlace:
    return "AtenInPlace";
  case ApiEffect::AtenOutFirst:
    return "AtenOutFirst";
  case ApiEffect::AtenOutLast:
    return "AtenOutLast";
  case ApiEffect::AtenOp:
    return "AtenOp";
  case ApiEffect::AtenSizedByData:
    return "AtenSizedByData";
  case ApiEffect::AtenNoTensor:
    return "AtenNoTensor";
  case ApiEffect::TransparentCast:
    return "TransparentCast";
  case ApiEffect::ConfiguredSetCurrent:
    return "ConfiguredSetCurrent";
  case ApiEffect::ConfiguredCurrentStream:
    return "ConfiguredCurrentStream";
  case ApiEffect::ConfiguredStreamSync:
    return "ConfiguredStreamSync";
  case ApiEffect::ConfiguredRecordStream:
    return "ConfiguredRecordStream";
  case ApiEffect::ConfiguredThreadSpawn:
    return "ConfiguredThreadSpawn";
  case ApiEffect::ConfiguredExecutorLaunch:
    return "ConfiguredExecutorLaunch";
  case ApiEffect::ConfiguredEventRecord:
    return "ConfiguredEventRecord";
  case ApiEffect::ConfiguredEventWait:
    return "ConfiguredEventWait";
  case ApiEffect::ConfiguredEventSync:
    return "ConfiguredEventSync";
  case ApiEffect::ConfiguredEventOther:
    return "ConfiguredEventOther";
  case ApiEffect::ConfiguredCaptureBegin:
    return "ConfiguredCaptureBegin";
  case ApiEffect::ConfiguredCaptureEnd:
    return "ConfiguredCaptureEnd";
  }
  return "?";
}

} // namespace streamsafe
