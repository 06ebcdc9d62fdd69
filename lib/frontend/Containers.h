//===--- Containers.h - Local containers of tensors -------------*- C++ -*-===//
//
// A local std::vector, std::array, std::pair, std::tuple or
// std::initializer_list of tensors is followed element by element when every
// use of it is understood (lib/frontend/Containers.cpp lists them). Each
// element put into it is a *slot*, which the lowering turns into a tensor
// variable of its own (`v[0]`): a constant index (or a known position of a
// push_back) names one slot, a loop over the container or a non-constant
// index names every slot it may hold, clear()/pop_back()/erase()/
// reassignment/destruction unbind slots. Positions are exact while every
// change of the container runs unconditionally (no loop or branch between
// its declaration and the change, Exact); a container that grows in loops
// or branches (push_back, clear only) is Loose: constant indices name no
// known slot (silent) and a loop over it names every slot. Anything else
// (passed by non-const reference, iterators, insert) is not followed: what
// is put into it escapes, as before.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_FRONTEND_CONTAINERS_H
#define STREAMSAFE_LIB_FRONTEND_CONTAINERS_H

#include "lib/frontend/ApiTable.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include <memory>

namespace clang {
class ASTContext;
class Expr;
class Stmt;
class VarDecl;
} // namespace clang

namespace streamsafe {

/// What one use of a followed container does, in slots (numbered per
/// container in the order they are made).
struct ContainerUse {
  enum Kind : uint8_t {
    Bind,    ///< Slots[i] takes the tensor Values[i] (declaration, push_back,
             ///< reassignment, `v[k] = t`); Kills die first
    Kill,    ///< the slots die (clear, pop_back, erase)
    Element, ///< the expression is one element: Slots (one), or, when
             ///< Slots is empty, an element not known (silent)
    Each,    ///< the expression stands for every element in Slots
    Ignore   ///< size(), empty(): nothing
  } K = Ignore;
  llvm::SmallVector<unsigned, 4> Slots;
  llvm::SmallVector<const clang::Expr *, 4> Values;
  llvm::SmallVector<unsigned, 4> Kills;
  /// A push_back that may run several times for one container (in a loop):
  /// what it pushes also escapes, so that its slot taking the next one does
  /// not free the previous one.
  bool EscapeToo = false;
};

struct ContainerInfo {
  enum Mode : uint8_t { Lost, Exact, Loose } M = Lost;
  unsigned SlotCount = 0;
  /// The position each slot was put at (its name, `v[1]`), -1 when it is
  /// not known (pushed in a loop or a branch).
  llvm::SmallVector<int, 8> SlotPosition;
  /// std::pair: slots are named `.first` and `.second`; std::tuple:
  /// `std::get<k>`.
  bool Pair = false, Tuple = false;
  /// Keyed by the node the lowering meets: the VarDecl (declaration, and
  /// the loop variable of a range-for over it), a call, a subscript, a
  /// member expression, a DeclRefExpr of the whole container.
  llvm::DenseMap<const void *, ContainerUse> Uses;
  const ContainerUse *use(const void *Node) const {
    auto It = Uses.find(Node);
    return It == Uses.end() ? nullptr : &It->second;
  }
};

class ContainerModel {
public:
  ContainerModel(clang::ASTContext &Ctx, ApiTable &Table);
  ~ContainerModel();
  /// True for a local of a container type holding only tensors.
  bool isContainerType(clang::QualType T);
  /// The model of a local container (computed once); null when \p V is not
  /// a container of tensors or is not followed.
  const ContainerInfo *info(const clang::VarDecl *V);
  /// Models every local container of \p F (its lambdas' too), so that
  /// consumed() answers before the declarations are lowered.
  void prepare(const clang::FunctionDecl &F);
  /// True when \p Node (a construction, a make_pair call, an init list)
  /// only builds the elements of a followed container: it keeps nothing.
  bool consumed(const void *Node) const { return Consumed.count(Node); }

private:
  ContainerInfo compute(const clang::VarDecl *V);

  clang::ASTContext &Ctx;
  ApiTable &Table;
  llvm::DenseMap<const clang::VarDecl *, std::unique_ptr<ContainerInfo>> Infos;
  llvm::DenseSet<const void *> Consumed;
  llvm::DenseSet<const clang::FunctionDecl *> Prepared;
};

} // namespace streamsafe

#endif // STREAMSAFE_LIB_FRONTEND_CONTAINERS_H
