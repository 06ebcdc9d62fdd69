//===--- BodyState.h - The body the Python builder is lowering -*- C++ -*-===//
//
// The state of Builder while it lowers one body (the analysed def's, or a
// helper's run in place): its blocks, the frames a jump must pass, and the
// scope and object it runs in.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_PYTHON_BODYSTATE_H
#define STREAMSAFE_LIB_PYTHON_BODYSTATE_H

#include "lib/ir/IR.h"
#include "lib/python/LoopCounters.h"
#include "lib/python/Syntax.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include <string>
#include <vector>

namespace streamsafe::py {

struct Instance;
struct Scope;

/// Where a jump out of a statement must pass.
struct Frame {
  enum Kind { Loop, With, Finally, Handler, Exit } K = Loop;
  unsigned Break = 0, Continue = 0;  ///< Loop: the targets
  VarId Guard = NoVar;               ///< With: the guard to restore
  bool Capture = false;              ///< With: torch.cuda.graph (ends it)
  VarId Graph = NoVar;               ///< With: the graph it captures into
  TSNode Node = {};                  ///< With: its body; Finally: its block
  unsigned Dispatch = 0;             ///< Handler: where exceptions go
  BodyId ExitBody = 0;               ///< Exit: __exit__, run in place
  std::string ExitName = "__exit__"; ///< ... named so in notes
};
/// The body being lowered.
struct BodyState {
  Body B;
  unsigned Cur = 0;
  std::vector<Frame> Frames;
  const Scope *S = nullptr;
  bool OwnsLocals = false; ///< a def's body: its locals die at exit
  /// Whose code this is (Site::Scope): 0, or the helper's number.
  unsigned SiteScope = 0;
  /// A method's body: the object `self` names (null: not followed).
  const Instance *Self = nullptr;
  /// A helper run in place: its parameters given True or False.
  llvm::StringMap<bool> Constants;
  /// A helper run in place: the variables its returns bind.
  VarId ReturnTensor = NoVar, ReturnStream = NoVar, ReturnEvent = NoVar;
  /// ... and each tensor item of a tuple it returns (NoVar: another item).
  llvm::SmallVector<VarId, 4> ReturnItems;
  /// A @contextmanager half being lowered: the yield it splits at and
  /// its part (a `with` around the yield is lowered in halves,
  /// withStatement).
  TSNode SplitYield = {};
  int SplitPart = 0;
  /// Counter loops and lists of streams (LoopCounters.cpp).
  CounterState Counters;
};

} // namespace streamsafe::py

#endif // STREAMSAFE_LIB_PYTHON_BODYSTATE_H
