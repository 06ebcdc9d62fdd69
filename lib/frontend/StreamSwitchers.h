//===--- StreamSwitchers.h - Hand-written RAII stream guards ----*- C++ -*-===//
//
// Code that does not use c10's guards often writes its own: a constructor
// that saves the current stream in a member and sets another, a destructor
// that sets the saved one back. Such a class is a stream guard, recognised
// from its code (the StreamGuardClasses option stays for classes defined in
// other translation units).
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_FRONTEND_STREAMSWITCHERS_H
#define STREAMSAFE_LIB_FRONTEND_STREAMSWITCHERS_H

#include <optional>

namespace clang {
class CXXRecordDecl;
} // namespace clang

namespace streamsafe {

class ApiLookup;

/// For a class whose destructor restores a stream its constructor saved
/// from getCurrentCUDAStream() before setting another, the position of the
/// constructor parameter that becomes the current stream.
std::optional<unsigned> streamSwitcherParameter(const clang::CXXRecordDecl &RD,
                                                ApiLookup &Table);

} // namespace streamsafe

#endif // STREAMSAFE_LIB_FRONTEND_STREAMSWITCHERS_H
