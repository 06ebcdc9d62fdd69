//===--- ApiConfig.h - User-configured stream APIs --------------*- C++ -*-===//
//
// Frameworks wrap streams, events and threads in their own classes (one
// binds a stream to a worker thread and wraps CUDA events; see
// docs/api-model.md#8-user-configured-framework-apis).
// These lists, read from the checks' options, extend the built-in API model.
// Names are canonical qualified names ("dtorch::CudaEvent"); method lists
// also accept a bare method name, which then applies to the listed classes.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_FRONTEND_APICONFIG_H
#define STREAMSAFE_LIB_FRONTEND_APICONFIG_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include <string>
#include <vector>

namespace clang {
class CXXRecordDecl;
class FunctionDecl;
} // namespace clang

namespace streamsafe {

struct ApiConfig {
  /// Option name, default value and a one-line description, for every list.
  struct Entry {
    const char *Name;
    const char *Default;
    llvm::StringSet<> ApiConfig::*Field;
  };
  static const std::vector<Entry> &entries();

  llvm::StringSet<> StreamGuardClasses;   ///< ctor(stream) sets, dtor restores
  llvm::StringSet<> CurrentStreamSetters; ///< f(stream): set, never restored
  llvm::StringSet<> CurrentStreamGetters; ///< f(): the current stream
  llvm::StringSet<> StreamBindingInitializers; ///< may leave a stream set
  llvm::StringSet<> EventClasses;              ///< event wrappers
  llvm::StringSet<> EventRecordMethods;        ///< ev.m(stream) / ev.m()
  llvm::StringSet<> EventWaitMethods;          ///< ev.m(waiting stream)
  llvm::StringSet<> EventSyncMethods;          ///< ev.m(): host waits
  llvm::StringSet<> StreamSyncFunctions;       ///< f(stream) / f(): host waits
  llvm::StringSet<> ThreadSpawnFunctions;      ///< f(callable): new thread
  llvm::StringSet<> ExecutorLaunchFunctions; ///< obj.m(callable): obj's thread
  llvm::StringSet<> RecordStreamFunctions;   ///< f(tensor, stream)
  llvm::StringSet<> GraphCaptureBeginFunctions; ///< f(stream) / f(): begins
  llvm::StringSet<> GraphCaptureEndFunctions;   ///< f() / obj.f(): ends

  /// Parses a ';'-separated list (spaces around names are ignored).
  static void parseList(llvm::StringRef Value, llvm::StringSet<> &Into);

  bool isEventClass(const clang::CXXRecordDecl *RD) const;
  /// True when method \p Qualified (of an event class) is in \p List, by its
  /// qualified or its bare name.
  static bool hasMethod(const llvm::StringSet<> &List,
                        const clang::FunctionDecl *FD);
};

} // namespace streamsafe

#endif // STREAMSAFE_LIB_FRONTEND_APICONFIG_H
