//===--- ExprClasses.h - What a Python expression holds --------*- C++ -*-===//
//
// The flow-insensitive inference Scope.cpp runs over a scope's bindings: the
// class (tensor, stream, event, guard, other) of an expression, given what
// the names it reads hold so far, and of the elements of a container.
// Internal to lib/python.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_PYTHON_EXPRCLASSES_H
#define STREAMSAFE_LIB_PYTHON_EXPRCLASSES_H

#include "lib/ir/IR.h"
#include "lib/python/Imports.h"
#include "lib/python/Syntax.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include <functional>
#include <limits>
#include <optional>

namespace streamsafe::py::infer {

/// A name's class while inferring: unset until an assignment says.
using Cls = std::optional<VarClass>;
/// A name's class; List: Tensor when the name holds a list of tensors.
struct Lookup {
  std::function<Cls(llvm::StringRef)> Name;
  std::function<Cls(llvm::StringRef)> List = [](llvm::StringRef) {
    return Cls(VarClass::Other);
  };
  /// What an attribute (`self.buf`) holds, when the caller knows
  /// (nothing: not known; the attribute is then another object's field).
  std::function<std::optional<Cls>(TSNode)> Attribute;
  /// What a value of the dict \p N (`self.cache`) holds, read by
  /// `N[k]`, `N.get(k)` or `N.pop(k)`, when the caller knows.
  std::function<std::optional<Cls>(TSNode)> DictValue;
  /// What item \p Index (-1: every item) of what the def \p Callee (`f`,
  /// or `self.m` of a method's own object) returns holds, when known.
  std::function<Cls(llvm::StringRef Callee, int Index)> Item;
  /// What item \p Item of each element of the list of tuples \p Name
  /// holds (Scope::TupleLists).
  std::function<Cls(llvm::StringRef Name, int Item)> Column =
      [](llvm::StringRef, int) { return Cls(VarClass::Other); };
  Cls operator()(llvm::StringRef N) const { return Name(N); }
};

/// The class both \p A and \p B may be: unset joins as nothing, two
/// different classes as Other.
Cls join(Cls A, Cls B);
/// The class an annotation names as the model spells its classes
/// (`torch.Tensor`, `torch.cuda.Stream`, `torch.Event`); Other for any
/// other annotation.
Cls classOfAnnotation(TSNode N, const SourceFile &F, const Imports &I);
/// The class of the elements of a container annotation: `List[T]`,
/// `list[T]`, `Sequence[T]`, `Iterable[T]`, `Tuple[T, ...]` and `tuple[T,
/// ...]` (also under `Optional`): T's class; Other for anything else.
Cls elementClassOfAnnotation(TSNode N, const SourceFile &F, const Imports &I);
/// The class of the values of a mapping annotation: `Dict[K, V]`,
/// `dict[K, V]`, `Mapping[K, V]` and their kin (also under `Optional`):
/// V's class; Other for anything else.
Cls valueClassOfAnnotation(TSNode N, const SourceFile &F, const Imports &I);
/// The classes of the items of a tuple annotation of one length
/// (`Tuple[torch.Tensor, Out]`, `tuple[A, B]`); none for anything else.
std::optional<llvm::SmallVector<VarClass, 4>>
tupleItemsOfAnnotation(TSNode N, const SourceFile &F, const Imports &I);
/// The class of item \p Index of a tuple of \p Items (-1: of every item;
/// past its end: Other).
VarClass itemClass(llvm::ArrayRef<VarClass> Items, int Index);
/// `typing.cast(T, x)`: the annotation T (null: not such a call).
TSNode castType(TSNode Call, const SourceFile &F, const Imports &I);
/// The class of \p N, with the names it reads looked up in \p L.
Cls exprClass(TSNode N, const Lookup &L, const SourceFile &F, const Imports &I);
/// Whether \p N is a value the analysis does not follow, which may be
/// anything: an object's attribute (`self.comm_stream`, `state.buf`), or a
/// call of another object's method, a def of another module, `next(it)`;
/// not a torch API, not a builtin that makes a number, string or container.
bool opaqueValue(TSNode N, const SourceFile &F, const Imports &I);
/// The element "position" of a loop over a dict's values (`for v in
/// d.values()`, `for k, v in d.items()`): the container is the dict, the
/// element some value of it (Lookup::DictValue).
constexpr int DictValueIndex = -2;
/// Of a loop over a dict's items (`for k, v in d.items()`): some key.
constexpr int DictKeyIndex = std::numeric_limits<int>::min();
/// The element index of `for a, b in xs`: item \p K of each element.
constexpr int eachElementItem(int K) { return -3 - K; }
/// The item an element index names in each element (-1: not such an
/// index).
constexpr int itemOfEachElement(int Index) {
  return Index <= -3 && Index != DictKeyIndex ? -3 - Index : -1;
}
/// The class of element \p Index (-1: of every element) of the container
/// \p C.
Cls elementClass(TSNode C, int Index, const Lookup &L, const SourceFile &F,
                 const Imports &I);

} // namespace streamsafe::py::infer

namespace streamsafe::py {
struct Scope;
/// The class of \p Expr in \p S, as classOfExpr, with the attributes
/// \p Attribute knows (unset: what it reads is not known yet).
infer::Cls
scopedClass(TSNode Expr, const Scope &S, const SourceFile &F, const Imports &I,
            std::function<std::optional<infer::Cls>(TSNode)> Attribute);
} // namespace streamsafe::py

#endif // STREAMSAFE_LIB_PYTHON_EXPRCLASSES_H
