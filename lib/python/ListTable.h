//===--- ListTable.h - Lists of tensors, element by element -----*- C++ -*-===//
//
// The state of Containers.cpp: the element variables of each list of
// tensors a scope binds, and the comprehension variables being lowered. One
// table per analysed scope.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_PYTHON_LISTTABLE_H
#define STREAMSAFE_LIB_PYTHON_LISTTABLE_H

#include "lib/ir/IR.h"
#include "lib/python/Values.h"
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace streamsafe::py {

struct Scope;

/// The element variables of a list of tensors.
struct ListSlots {
  VarId Name = NoVar;           ///< names the list in messages
  std::vector<VarId> Positions; ///< xs[0], xs[1], ...
  std::vector<std::pair<const void *, VarId>> Appends; ///< per site
  VarId Rest = NoVar;                                  ///< of no known position
  bool Pieces = false;   ///< only ever bound to chunk() and its kin
  bool Reshaped = false; ///< its elements may change position (pop, ...)
  bool Captured = false; ///< a nested def or lambda names it

  std::vector<VarId> all() const {
    std::vector<VarId> Out = Positions;
    for (const auto &[Site, V] : Appends)
      Out.push_back(V);
    if (Rest != NoVar)
      Out.push_back(Rest);
    return Out;
  }
};

class ListTable {
public:
  /// The slots of \p Owner's list \p Name; \p New: made by this call (the
  /// caller fills them).
  ListSlots &slots(const Scope *Owner, const std::string &Name, bool &New) {
    auto [It, Made] = Lists.try_emplace({Owner, Name});
    New = Made;
    return It->second;
  }
  /// The lists of \p Owner, by name.
  std::vector<const ListSlots *> slotsOf(const Scope *Owner) const {
    std::vector<const ListSlots *> Out;
    for (const auto &[Key, L] : Lists)
      if (Key.first == Owner)
        Out.push_back(&L);
    return Out;
  }

  /// Within a comprehension, \p Name stands for \p Element (innermost
  /// last) until endSubstitution().
  void substitute(std::string Name, Value Element) {
    Substitutions.push_back({{std::move(Name), std::move(Element)}});
  }
  void endSubstitution() { Substitutions.pop_back(); }
  /// What \p Name stands for in the comprehensions being lowered (null:
  /// itself).
  const Value *substituted(const std::string &Name) const {
    for (auto It = Substitutions.rbegin(); It != Substitutions.rend(); ++It)
      if (auto S = It->find(Name); S != It->end())
        return &S->second;
    return nullptr;
  }

private:
  std::map<std::pair<const Scope *, std::string>, ListSlots> Lists;
  std::vector<std::map<std::string, Value>> Substitutions;
};

} // namespace streamsafe::py

#endif // STREAMSAFE_LIB_PYTHON_LISTTABLE_H
