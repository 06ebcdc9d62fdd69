//===--- LoadTimeStreams.h - Streams captured when a library loads -*- C++
//-*-===//
//
// A variable of namespace scope initialised with PyTorch's current stream
// (`cudaStream_t stream = getCurrentCUDAStream();`, DGL's cuda_filter.cu
// before its fix) is initialised once, while the library is loaded, before
// any caller has made a stream current: it holds the default stream for
// good. Work later issued on it runs on the default stream whatever stream
// the caller made current. Judged only when nothing in the translation unit
// changes the variable and no other unit can (internal linkage or const).
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_FRONTEND_LOADTIMESTREAMS_H
#define STREAMSAFE_LIB_FRONTEND_LOADTIMESTREAMS_H

#include <memory>

namespace clang {
class ASTContext;
class VarDecl;
} // namespace clang

namespace streamsafe {

class ApiTable;

class LoadTimeStreams {
public:
  LoadTimeStreams(clang::ASTContext &Ctx, ApiTable &Table);
  ~LoadTimeStreams();

  /// Whether \p V is a variable of namespace scope, initialised with
  /// PyTorch's current stream, that nothing changes after.
  bool holdsLoadTimeStream(const clang::VarDecl &V);

private:
  class Uses;

  clang::ASTContext &Ctx;
  ApiTable &Table;
  /// The unit's code outside system headers, scanned at the first question:
  /// which variables of namespace scope it may change.
  std::unique_ptr<Uses> Changes;
};

} // namespace streamsafe

#endif // STREAMSAFE_LIB_FRONTEND_LOADTIMESTREAMS_H
