//===--- HelperCalls.h - What a call of a def of the project binds -*- C++
//-*-===//
//
// A call the Python builder runs in place: the def it reaches (and the
// object a method runs on), and which argument each parameter gets. Also
// the bound of a slice a region is read from (Regions.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_PYTHON_HELPERCALLS_H
#define STREAMSAFE_LIB_PYTHON_HELPERCALLS_H

#include "lib/ir/IR.h"
#include "lib/python/Syntax.h"
#include "llvm/ADT/StringMap.h"
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace streamsafe::py {

struct Scope;
struct Instance;

/// The def a call reaches: a def of the scope or an enclosing one, or a
/// method of an object followed here (Self) or of the analysed method's.
struct CalleeDef {
  TSNode Def = {};
  const Scope *Outer = nullptr;
  const Instance *Self = nullptr;
  bool Method = false;
};

/// Which argument each parameter of a def gets, and what they hold.
struct ArgumentMatch {
  std::vector<std::pair<std::string, TSNode>> Bound;
  std::vector<TSNode> Extra;
  llvm::StringMap<VarClass> Classes;
  llvm::StringMap<VarId> Events;
  /// Parameters given the caller's data that the callee uses as a tensor
  /// (`clone(tgt, src)` with `tgt.copy_(src)`): the caller's parameter.
  llvm::StringMap<TSNode> CallerData;
  bool GivenStreams = false;
  /// Parameters given `True` or `False` as written: a flag the callee's
  /// tests of it decide (`timed(enabled=False)`).
  llvm::StringMap<bool> Constants;
};

/// A slice's bound: a name's symbol (0: none) plus a constant.
struct SliceBound {
  uint32_t Sym = 0;
  int64_t Offset = 0;
};

} // namespace streamsafe::py

#endif // STREAMSAFE_LIB_PYTHON_HELPERCALLS_H
