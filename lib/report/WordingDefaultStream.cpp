//===--- WordingDefaultStream.cpp - Default-stream work, in words ---------===//
//
// C++ only (streamsafe-default-stream-launch): the names are the CUDA
// runtime's, thrust's and LibTorch's.
//
//===----------------------------------------------------------------------===//

#include "lib/report/Writer.h"

namespace streamsafe::report {

namespace {

// A thrust policy without a stream, as the user spells it.
const char *policyText(ThrustPolicy P) {
  switch (P) {
  case ThrustPolicy::Device:
    return "'thrust::device'";
  case ThrustPolicy::Par:
    return "'thrust::cuda::par' without '.on(stream)'";
  case ThrustPolicy::ParNosync:
    return "'thrust::cuda::par_nosync' without '.on(stream)'";
  default:
    return "";
  }
}

// What a variable was initialized with, for the note at the variable.
const char *initializerText(StreamOrigin O) {
  switch (O) {
  case StreamOrigin::Null:
    return "a null stream";
  case StreamOrigin::Legacy:
    return "'cudaStreamLegacy'";
  case StreamOrigin::PerThread:
    return "'cudaStreamPerThread'";
  default:
    return "'getDefaultCUDAStream()'";
  }
}

// How the stream was given, for the warning.
std::string streamReason(const finding::DefaultStreamLaunch &X,
                         const Function &IR) {
  if (X.Policy == ThrustPolicy::DeviceIterators)
    return "no execution policy, iterators on the device";
  if (X.Policy != ThrustPolicy::None && X.PolicyVar.Var != NoVar)
    return "execution policy '" + IR.var(X.PolicyVar.Var).Name + "'";
  if (X.Policy != ThrustPolicy::None)
    return std::string("execution policy ") + policyText(X.Policy);
  if (X.StreamVar.Var != NoVar && X.Origin == StreamOrigin::LoadTime)
    return "stream '" + IR.var(X.StreamVar.Var).Name +
           "', the current stream while the library was loaded";
  if (X.StreamVar.Var != NoVar)
    return "stream '" + IR.var(X.StreamVar.Var).Name + "'";
  switch (X.Origin) {
  case StreamOrigin::Omitted:
    return "no stream argument";
  case StreamOrigin::Null:
    return "stream argument is null";
  case StreamOrigin::Legacy:
    return "stream argument is 'cudaStreamLegacy'";
  case StreamOrigin::PerThread:
    return "stream argument is 'cudaStreamPerThread'";
  case StreamOrigin::DefaultGetter:
    return "stream argument is 'getDefaultCUDAStream()'";
  default:
    return "";
  }
}

// How a project function's stream parameter was given a default stream,
// for the warning at the call.
std::string parameterReason(const finding::DefaultStreamLaunch &X,
                            const Function &IR) {
  if (X.MemberInitializedAt != NoSite)
    return "its object's stream member '" + X.Through.front().Param +
           "' is still " + initializerText(X.Origin) +
           ": nothing in this translation unit sets it";
  std::string Param = "its stream parameter '" + X.Through.front().Param + "'";
  if (X.Origin == StreamOrigin::Omitted)
    return Param + " is left to its default, " +
           initializerText(X.DefaultArgument);
  if (X.StreamVar.Var != NoVar)
    return Param + " is given stream '" + IR.var(X.StreamVar.Var).Name + "'";
  return Param + " is given " + initializerText(X.Origin);
}

} // namespace

void Writer::word(const finding::DefaultStreamLaunch &X) {
  std::string Work =
      X.Work == WorkKind::KernelLaunch ? "kernel launch" : "'" + X.Api + "'";
  switch (X.Work) {
  case WorkKind::SyncCopy:
    warn(X.At, sub("%0 runs on the legacy default stream: it blocks the host "
                   "but is not ordered with work on PyTorch's non-blocking "
                   "streams; use '%1' on the current stream",
                   {Work, X.AsyncApi}));
    break;
  case WorkKind::SyncSet:
    warn(X.At, sub("%0 runs on the legacy default stream, which is not "
                   "ordered with work on PyTorch's non-blocking streams; use "
                   "'%1' on the current stream",
                   {Work, X.AsyncApi}));
    break;
  case WorkKind::KernelLaunch:
  case WorkKind::StreamApi:
    if (!X.Through.empty()) {
      warn(X.At, sub("'%0' runs its CUDA work on the %1 default stream (%2), "
                     "not on PyTorch's current stream",
                     {X.Api,
                      X.Origin == StreamOrigin::PerThread ||
                              X.DefaultArgument == StreamOrigin::PerThread
                          ? "per-thread"
                          : "legacy",
                      parameterReason(X, IR)}));
      break;
    }
    warn(X.At,
         sub("%0 runs on the %1 default stream (%2), not on PyTorch's "
             "current stream",
             {Work,
              X.Origin == StreamOrigin::PerThread ? "per-thread" : "legacy",
              streamReason(X, IR)}));
    break;
  }
  if (X.MemberInitializedAt != NoSite)
    note(X.MemberInitializedAt,
         sub("'%0' is initialized with %1 here",
             {X.Through.front().Param, initializerText(X.Origin)}));
  if (X.UncalledSetterAt != NoSite)
    note(X.UncalledSetterAt,
         sub("'%0' would set '%1', but nothing in this translation unit "
             "calls it",
             {X.UncalledSetter, X.Through.front().Param}));
  // The steps from the call to the work, one note each.
  for (const finding::DefaultStreamLaunch::Step &S : X.Through) {
    std::string Param = "'" + S.Param + "' of '" + S.Function + "'";
    if (!S.PassedTo.empty())
      note(S.At, Param + " is passed on to '" + S.PassedTo + "' here");
    else if (S.Work == WorkKind::KernelLaunch)
      note(S.At, Param + " is the stream of this kernel launch");
    else
      note(S.At, Param + " is the stream of '" + S.WorkApi + "' here");
  }
  if (X.MacroBody != NoSite)
    note(X.MacroBody,
         sub("in the expansion of macro '%0', written here", {X.MacroName}));
  if (X.PolicyVar.Var != NoVar && X.Policy != ThrustPolicy::None)
    note(X.PolicyVar.Declared,
         sub("'%0' is initialized with %1 here",
             {IR.var(X.PolicyVar.Var).Name, policyText(X.Policy)}));
  else if (X.PolicyVar.Var != NoVar)
    note(X.PolicyVar.Declared,
         sub("'%0' is initialized here", {IR.var(X.PolicyVar.Var).Name}));
  if (X.StreamVar.Var != NoVar && X.Origin == StreamOrigin::LoadTime)
    note(X.StreamVar.Declared,
         sub("'%0' is initialized here with PyTorch's current stream, once, "
             "while the library is loaded: the default stream, whatever "
             "stream its callers make current later",
             {IR.var(X.StreamVar.Var).Name}));
  else if (X.StreamVar.Var != NoVar)
    note(X.StreamVar.Declared,
         sub("'%0' is initialized with %1 here",
             {IR.var(X.StreamVar.Var).Name, initializerText(X.Origin)}));
  if (X.UnusedCurrentStream.Var != NoVar)
    note(X.UnusedCurrentStream.Declared,
         sub("PyTorch's current stream was stored in '%0' here",
             {IR.var(X.UnusedCurrentStream.Var).Name}));
}

} // namespace streamsafe::report
