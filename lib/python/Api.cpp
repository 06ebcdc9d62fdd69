//===--- Api.cpp - The API model, as the Python front end asks it ---------===//

#include "lib/python/Api.h"
#include "lib/model/ApiRows.h"
#include "lib/model/HostOrder.h"
#include "lib/model/TensorMethods.h"
#include "lib/model/TorchFunctions.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/Twine.h"

namespace streamsafe::py {

PyApi apiOf(llvm::StringRef Q) {
  if (const ApiRow *R = pythonApi(Q)) {
    switch (R->Entry.Effect) {
    case ApiEffect::StreamFromPool:
      return PyApi::NewStream;
    case ApiEffect::ExternalStream:
      return PyApi::ExternalStream;
    case ApiEffect::CurrentStream:
      return PyApi::CurrentStream;
    case ApiEffect::DefaultStream:
      return PyApi::DefaultStream;
    case ApiEffect::SetCurrentStream:
      return PyApi::SetStream;
    case ApiEffect::DeviceSynchronize:
      return PyApi::Synchronize;
    case ApiEffect::SpawnThread:
      return R->Entry.TaskArgs == TaskArguments::Packed ? PyApi::Thread
                                                        : PyApi::Task;
    case ApiEffect::CaptureRegion:
      return PyApi::Graph;
    case ApiEffect::Collective:
    case ApiEffect::CollectiveAsync:
    case ApiEffect::CollectiveFunctional:
      return PyApi::Collective;
    default:
      break;
    }
  }
  switch (pythonClass(Q)) {
  case ValueClass::Event:
    return PyApi::NewEvent;
  case ValueClass::StreamGuard:
    return PyApi::StreamContext;
  case ValueClass::DeviceGuard:
    return PyApi::DeviceContext;
  default:
    break;
  }
  switch (torchEffect(Q)) {
  case ApiEffect::None:
    return PyApi::None;
  case ApiEffect::AtenNoTensor:
    return PyApi::NotTensor;
  default:
    return PyApi::TorchFunction;
  }
}

llvm::StringRef torchBareName(llvm::StringRef Q) {
  llvm::StringRef Bare = Q;
  if (Bare.consume_front("torch.nn.functional.") ||
      Bare.consume_front("torch."))
    return Bare;
  return {};
}

ApiEffect torchEffect(llvm::StringRef Q) {
  return pythonTorchFunctionEffect(Q);
}

bool usesStreams(PyApi Api) {
  switch (Api) {
  case PyApi::None:
  case PyApi::TorchFunction:
  case PyApi::NotTensor:
  case PyApi::DeviceContext:
  // A pool's task alone makes no def worth analysing, as a method's call
  // on an executor does not (the pre-scan cannot type the executor).
  case PyApi::Task:
    return false;
  default:
    return true;
  }
}

bool isStreamMethod(llvm::StringRef Name) {
  for (const char *Class : {"torch.cuda.Stream.", "torch.cuda.Event."})
    if (const ApiRow *R = pythonApi((llvm::Twine(Class) + Name).str());
        R && R->Entry.Effect != ApiEffect::RestrictedEventQuery &&
        R->Entry.Effect != ApiEffect::RestrictedStreamQuery)
      return true;
  return tensorMethod(Name) == ApiEffect::TensorRecordStream;
}

static const ApiRow *methodRow(const char *Class, llvm::StringRef Name) {
  return pythonApi((llvm::Twine(Class) + Name).str());
}

ApiEffect streamMethodEffect(llvm::StringRef Name) {
  const ApiRow *R = methodRow("torch.cuda.Stream.", Name);
  return R ? R->Entry.Effect : ApiEffect::None;
}

ApiEffect eventMethodEffect(llvm::StringRef Name) {
  const ApiRow *R = methodRow("torch.cuda.Event.", Name);
  return R ? R->Entry.Effect : ApiEffect::None;
}

bool waitsForStream(llvm::StringRef Name) {
  const ApiRow *R = methodRow("torch.cuda.Stream.", Name);
  return R && R->Entry.Effect == ApiEffect::StreamWaitEvent &&
         R->Entry.Stream >= 0;
}

ApiEffect hostOrderMethod(llvm::StringRef Name) {
  // Built once: method name -> the first row's effect (Event.wait before
  // Barrier.wait). A row's Python names that are functions of a module
  // (concurrent.futures.wait) are not methods: a class name starts with a
  // capital.
  static const llvm::StringMap<ApiEffect> Methods = [] {
    llvm::StringMap<ApiEffect> M;
    for (const ApiRow &R : apiRows()) {
      if (!R.Python || !isHostOrder(R.Entry.Effect))
        continue;
      llvm::SmallVector<llvm::StringRef, 8> Names;
      llvm::StringRef(R.Python).split(Names, ';');
      for (llvm::StringRef N : Names) {
        auto [Owner, Method] = N.rsplit('.');
        llvm::StringRef Class = Owner.rsplit('.').second;
        if (!Class.empty() && Class.front() >= 'A' && Class.front() <= 'Z')
          M.try_emplace(Method, R.Entry.Effect);
      }
    }
    return M;
  }();
  auto It = Methods.find(Name);
  return It == Methods.end() ? ApiEffect::None : It->second;
}

ApiEffect hostOrderFunction(llvm::StringRef Qualified) {
  const ApiRow *R = pythonApi(Qualified);
  return R && isHostOrder(R->Entry.Effect) ? R->Entry.Effect : ApiEffect::None;
}

bool isTransparentDecorator(llvm::StringRef Qualified) {
  const ApiRow *R = pythonApi(Qualified);
  return R && R->Entry.Effect == ApiEffect::GradMode;
}

ApiEffect tensorMethod(llvm::StringRef Name) {
  return tensorMethodEffect(Name, Language::Python);
}

bool isViewAttribute(llvm::StringRef Name) {
  return tensorAttributeEffect(Name) == ApiEffect::TensorView;
}

} // namespace streamsafe::py
