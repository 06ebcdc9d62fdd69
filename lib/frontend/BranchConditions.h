//===--- BranchConditions.h - What a branch tells about a variable -*- C++
//-*-===//
//
// Correlated branches: `if (flag) set(side); ...; if (flag) set(saved);`
// tests one never-changing variable twice, and the path that takes the first
// branch but not the second does not exist. The front end marks the edges of
// a branch on such a variable with what each one tells (the variable is
// truthy or not); the solver keeps paths that contradict each other apart.
//
// Tracked: by-value parameters and locals of scalar type (bool, integer,
// enum, pointer) that no statement of the function changes after their
// initialisation (see VariableChanges.h). A local's declaration that runs
// again (in a loop) is lowered to a Forget fact. Conditions: `v`, `!v`,
// `v == 0`, `v != nullptr` and the like. A helper run in place given a
// constant for such a parameter (`scaled(x, false)`, a constexpr) has its
// tests of it decided (fact::Forget::Known); what its tests told of its own
// variables is dropped when it returns, as the next call binds them anew.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_FRONTEND_BRANCHCONDITIONS_H
#define STREAMSAFE_LIB_FRONTEND_BRANCHCONDITIONS_H

#include "lib/ir/IR.h"
#include "llvm/ADT/DenseSet.h"
#include <functional>
#include <optional>

namespace clang {
class Expr;
class FunctionDecl;
class VarDecl;
} // namespace clang

namespace streamsafe {

class BranchConditions {
public:
  /// Scans \p FD's body once.
  explicit BranchConditions(const clang::FunctionDecl &FD);

  /// What the true edge of a branch on \p Cond tells, with \p VarOf naming
  /// the variable; nothing when \p Cond is not a test of a tracked variable.
  std::optional<Assumption>
  whenTrue(const clang::Expr *Cond,
           const std::function<VarId(const clang::VarDecl *)> &VarOf) const;

  /// What each edge of a branch on \p Cond tells (`a && b` true: both
  /// hold; false: nothing is known of either): {true edge, false edge}.
  /// \p IsStream tells the stream variables, whose comparison (`a == b`,
  /// `a != b`) the state decides (Assumption::Test::SameStream).
  std::pair<EdgeCondition, EdgeCondition>
  edges(const clang::Expr *Cond,
        const std::function<VarId(const clang::VarDecl *)> &VarOf,
        const std::function<bool(VarId)> &IsStream = nullptr) const;

  /// True for the variables whose branch outcomes are tracked.
  bool tracked(const clang::VarDecl *V) const { return Stable.count(V); }

private:
  llvm::DenseSet<const clang::VarDecl *> Stable;
};

} // namespace streamsafe

#endif // STREAMSAFE_LIB_FRONTEND_BRANCHCONDITIONS_H
