//===--- ObjectTable.h - Objects of the file's classes, followed -*- C++
//-*-===//
//
// The objects the Python builder follows (HelperObjects.cpp, Records.cpp,
// Dicts.cpp, AttributeStreams.cpp) and what it learns of the file's classes
// while it does: the names bound to one object, the record classes' fields,
// which bodies change a list attribute. One table per analysed scope.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_PYTHON_OBJECTTABLE_H
#define STREAMSAFE_LIB_PYTHON_OBJECTTABLE_H

#include "lib/ir/IR.h"
#include "lib/python/Syntax.h"
#include "llvm/ADT/FunctionExtras.h"
#include "llvm/ADT/StringMap.h"
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace streamsafe::py {

struct Scope;

/// A field of a record class's generated __init__, in order (Records.cpp).
struct RecordField {
  std::string Name;
  /// Annotated as a tensor (a class record)...
  bool Tensor = false;
  /// ... or typed by its argument (namedtuple()).
  bool Untyped = false;
};

/// An object of a class of this file whose methods run in place (the
/// value of `with Cls(...)`, `Cls(...)`, a record, a dict of tensors): its
/// stream, event and tensor attributes are followed as variables of its
/// own.
struct Instance {
  TSNode Class = {};
  /// Its attributes' variables; a dict's grow as constant keys are
  /// stored (Dicts.cpp).
  mutable llvm::StringMap<VarId> Attrs;
  /// A dict of tensors: Attrs are its constant keys, not attributes.
  bool Keyed = false;
  /// What names its entries in messages ('bufs', 'batch').
  std::string Name;
};

class ObjectTable {
public:
  /// A new object of \p Class (null for a dict); it lives as long as the
  /// table.
  Instance &make(TSNode Class = {}) {
    Instances.emplace_back();
    Instances.back().Class = Class;
    return Instances.back();
  }

  /// The object the name \p Name of \p Owner is bound to (null: none).
  const Instance *named(const Scope *Owner, const std::string &Name) const {
    auto It = Names.find({Owner, Name});
    return It == Names.end() ? nullptr : It->second;
  }
  /// \p Name of \p Owner names \p Object wherever it is read.
  void name(const Scope *Owner, const std::string &Name,
            const Instance *Object) {
    Names[{Owner, Name}] = Object;
  }

  /// The fields of the record class \p Name (none: not a record), read by
  /// \p Read the first time.
  using RecordReader =
      llvm::function_ref<std::optional<std::vector<RecordField>>()>;
  const std::optional<std::vector<RecordField>> &record(const std::string &Name,
                                                        RecordReader Read) {
    auto [It, New] = Records.try_emplace(Name);
    if (New)
      It->second = Read();
    return It->second;
  }

  /// Whether \p Body changes the list attribute \p Attr (its elements are
  /// then not followed there), found by \p Scan the first time.
  bool elementsChanged(TSNode Body, const std::string &Attr,
                       llvm::function_ref<bool()> Scan) {
    auto [It, New] = ElementsChanged.try_emplace({Body.id, Attr}, false);
    if (New)
      It->second = Scan();
    return It->second;
  }

private:
  std::deque<Instance> Instances; // stable addresses
  std::map<std::pair<const Scope *, std::string>, const Instance *> Names;
  std::map<std::string, std::optional<std::vector<RecordField>>> Records;
  std::map<std::pair<const void *, std::string>, bool> ElementsChanged;
};

} // namespace streamsafe::py

#endif // STREAMSAFE_LIB_PYTHON_OBJECTTABLE_H
