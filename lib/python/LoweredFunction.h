//===--- LoweredFunction.h - What the Python builder hands on -*- C++ -*-===//
//
// One analysed scope's IR with what messages need of its sites, and what
// the methods of a class leave in their object's fields for the others.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_PYTHON_LOWEREDFUNCTION_H
#define STREAMSAFE_LIB_PYTHON_LOWEREDFUNCTION_H

#include "lib/ir/IR.h"
#include "lib/python/Syntax.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace streamsafe::py {

/// One analysed scope's IR, and what messages need of its sites.
struct LoweredFunction {
  std::unique_ptr<Function> IR;
  /// The name of the function called at a site (for messages that name it).
  llvm::DenseMap<SiteId, std::string> Callees;
  /// The text of the branch conditions the engine keeps paths apart on.
  llvm::DenseMap<SiteId, std::string> Conditions;
  /// The bytes of each call site's call in its file, for messages that
  /// quote a call whose result has no name.
  llvm::DenseMap<SiteId, std::pair<uint32_t, uint32_t>> CallSpans;
  /// The file of each helper's code (Site::Scope) that is not the analysed
  /// file's: a helper of another module (Modules.h).
  std::map<unsigned, const SourceFile *> ScopeFiles;
};

/// Site locations: line in the upper half, column in the lower.
inline uint64_t packLoc(Position P) {
  return (uint64_t(P.Line) << 32) | P.Column;
}
inline Position unpackLoc(uint64_t L) {
  return {unsigned(L >> 32), unsigned(L & 0xffffffffu)};
}

/// What one method left in flight in a tensor field of its object, as the
/// other methods of its class start from it (Analysis.cpp gathers them
/// from each method's analysis; followSelf binds them).
struct FieldCarry {
  Site Write, Exit; ///< in the method that left it (this file)
  std::string Method;
  /// The field stream it runs on (`copy_stream`; "": the caller's current
  /// stream, or OnOther: a stream of that method's own).
  std::string Stream;
  bool OnOther = false, Allocation = false, VisibleToEntry = false,
       Complete = false, Read = false;
};
/// By attribute name.
using FieldCarries = llvm::StringMap<std::vector<FieldCarry>>;

} // namespace streamsafe::py

#endif // STREAMSAFE_LIB_PYTHON_LOWEREDFUNCTION_H
