//===--- StreamDescription.cpp - Streams and tensors in words -------------===//

#include "checks/StreamDescription.h"
#include "llvm/Support/ErrorHandling.h"

using namespace ::streamsafe;

namespace clang::tidy::streamsafe {

std::string describeStream(const FunctionResult &R, StreamDesc D) {
  std::string Name = D.Named == NoVar ? "" : "'" + R.name(D.Named) + "'";
  switch (D.Kind) {
  case StreamKind::Unknown:
    return "an unknown stream";
  case StreamKind::Default:
    return "the default stream";
  case StreamKind::EntryCurrent:
    return "the caller's current stream";
  case StreamKind::Pool:
    return Name.empty() ? "a pool stream" : "pool stream " + Name;
  case StreamKind::Created:
    return Name.empty() ? "a new stream" : "new stream " + Name;
  case StreamKind::Executor:
    return Name.empty() ? "an executor's stream"
                        : "the stream of executor " + Name;
  case StreamKind::Parameter:
  case StreamKind::Other:
    return Name.empty() ? "another stream" : "stream " + Name;
  }
  llvm_unreachable("every stream kind is described");
}

std::string tensorName(const FunctionResult &R, VarId V) {
  return V == NoVar ? "<temporary>" : R.name(V);
}

} // namespace clang::tidy::streamsafe
