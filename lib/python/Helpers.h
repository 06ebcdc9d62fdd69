//===--- Helpers.h - What a file defines, for helpers -----------*- C++ -*-===//
//
// The questions running same-file helpers in place asks of the whole file
// (which class a name is, whether a subclass overrides a method, whether a
// def uses streams, which attributes of a class hold streams), answered
// once per file rather than at each call (lib/python/Helpers.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_PYTHON_HELPERS_H
#define STREAMSAFE_LIB_PYTHON_HELPERS_H

#include "lib/ir/IR.h"
#include "lib/model/Bounds.h"
#include "lib/python/Scope.h"
#include "lib/python/Syntax.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include <string>
#include <vector>

namespace streamsafe::py {

//===-- Defs and classes of the file, as Helpers.cpp and HelperObjects.cpp
//===-- read them
//----------------------------------------------------------===//

using bounds::MaxInlinedCallees;

/// The parameter names of a def, in order.
std::vector<std::string> paramNames(TSNode Def, const SourceFile &F);
/// Whether a def is decorated.
bool decorated(TSNode Def);
/// The class a def is a method of (null: none).
TSNode classOf(TSNode Def);
/// The undecorated method \p Name defined in \p Class's body (null: none).
TSNode methodOf(TSNode Class, llvm::StringRef Name, const SourceFile &F);
/// The yield statement of a @contextmanager generator and its statements
/// before and after it (null: not the one-yield shape).
TSNode splitAtYield(TSNode Def, std::vector<TSNode> &Before,
                    std::vector<TSNode> &After);

class HelperIndex {
public:
  HelperIndex(const SourceFile &F, const Imports &I);
  /// The module-level class \p Name (null: none, or defined twice).
  TSNode moduleClass(llvm::StringRef Name) const;
  /// Whether a class of the file derived from \p Class defines \p Method.
  bool overridden(TSNode Class, llvm::StringRef Method) const;
  /// Whether a def's own code uses the stream API (as the C++ pre-scan
  /// mentionsStreamApis): a stream, event or guard API, a stream or event
  /// method, a non_blocking copy.
  bool usesStreams(TSNode Def);
  /// The stream and event attributes of \p Class's objects: `self.x = v` in
  /// its methods, every v a stream (or every v an event).
  const llvm::StringMap<VarClass> &attributeClasses(TSNode Class,
                                                    const Scope &Module);

private:
  const SourceFile &F;
  const Imports &I;
  llvm::StringMap<TSNode> ModuleClasses;
  llvm::StringSet<> Overrides;
  llvm::DenseMap<const void *, bool> Streams;
  llvm::DenseMap<const void *, llvm::StringMap<VarClass>> Attributes;
};

} // namespace streamsafe::py

#endif // STREAMSAFE_LIB_PYTHON_HELPERS_H
