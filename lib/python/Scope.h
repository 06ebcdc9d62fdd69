//===--- Scope.h - A Python scope's names and what they hold ----*- C++ -*-===//
//
// Python declares nothing: a name is local to a function when the function
// binds it, and holds a tensor, a stream or an event only as far as its
// assignments say. A scope (the module body, a def, a lambda) collects the
// names it binds and infers, flow-insensitively, the class of each: every
// assignment must agree (a tensor-returning torch call, a stream API, an op
// on a tensor), or the name is not followed (VarClass::Other).
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_PYTHON_SCOPE_H
#define STREAMSAFE_LIB_PYTHON_SCOPE_H

#include "lib/ir/IR.h"
#include "lib/python/Imports.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include <functional>
#include <vector>

namespace streamsafe::py {

/// What a def returns: the class of the whole value, and of each item when
/// it is a tuple of one length (empty: not known to be one;
/// ReturnClasses.h).
struct ReturnShape {
  VarClass Whole = VarClass::Other;
  llvm::SmallVector<VarClass, 4> Items;
  /// Whether the shape says anything followed.
  bool followed() const;
};

struct Scope {
  enum Kind { Module, Def, Lambda } K = Module;
  TSNode Node;
  const Scope *Parent = nullptr;
  /// The module scope (itself for the module).
  const Scope *ModuleScope = nullptr;
  /// Names bound in this scope, with their inferred class.
  llvm::StringMap<VarClass> Locals;
  /// Parameters, in order (identifier nodes).
  std::vector<TSNode> Params;
  /// Functions defined directly in this scope, by name.
  llvm::StringMap<TSNode> Defs;
  /// Names bound once, to a device written as a literal ("cuda",
  /// torch.device("cpu")): the device's text.
  llvm::StringMap<std::string> Devices;
  /// What each name is bound to (null: something not followed), and the
  /// names bound to one element of a container (`a, b = t.chunk(2)`: the
  /// container and the element's position; `for x in xs`: position -1).
  llvm::StringMap<std::vector<TSNode>> Bindings;
  llvm::StringMap<std::vector<std::pair<TSNode, int>>> Elements;
  /// Names that hold a list or tuple of tensors (docs/python.md,
  /// Containers.cpp): every binding is a container of tensors (a literal,
  /// a comprehension, chunk()/split()/unbind()), every append a tensor.
  llvm::StringSet<> TensorLists;
  /// Names that hold a list of tuples of one arity (TupleListShapes.h):
  /// what each item of the tuples is (none: its own code says nothing, as
  /// when only a closure appends).
  llvm::StringMap<llvm::SmallVector<std::optional<VarClass>, 4>> TupleLists;
  /// Parameters annotated as lists (sequences, tuples) of tensors, and as
  /// dicts whose values are tensors.
  llvm::StringSet<> TensorListParams, TensorDictParams;
  /// Names (not parameters) whose every binding is host data written out
  /// (isHostDataLiteral): what `torch.tensor(name, device=...)` copies
  /// from the host, as it copies the literal.
  llvm::StringSet<> HostData;
  /// Locals classified by their uses alone, bound once to a call the
  /// analysis does not follow (ClassesByUse.h): the call's result is a
  /// storage of its own, made on the current stream there.
  llvm::StringSet<> ByUse;
  /// Names changed in place by an augmented assignment (`x += 1`).
  llvm::StringSet<> Augmented;
  /// "p.f": fields of a parameter object (not a method's own) that the def
  /// uses only as tensors, never rebinding p or storing into p.f: the
  /// caller's tensors, ready on its current stream at entry.
  llvm::StringSet<> ParamFields;

  /// A module scope: the shapes of the methods of its classes that their
  /// methods call on their own object, by method (each read once).
  mutable llvm::DenseMap<const void *, ReturnShape> MethodShapes;
  /// A module scope: what a call of a name the file imports returns, when
  /// it names a def of another module of the project (ImportedReturns.h;
  /// empty: not asked).
  std::function<VarClass(llvm::StringRef)> Imported;

  /// The scope that binds \p Name as seen from here (null: none does).
  const Scope *owner(llvm::StringRef Name) const;
  /// Defs bound once in this scope whose every return gives a tensor (or
  /// a stream), whatever their arguments: the class of a call's value.
  llvm::StringMap<VarClass> Returns;
  /// Defs (and "self.m", the methods a method calls on its own object)
  /// that return a tuple of one length: the class of each item.
  llvm::StringMap<llvm::SmallVector<VarClass, 4>> ReturnItems;

  /// The class of \p Name as seen from here.
  VarClass classOf(llvm::StringRef Name) const;
  /// The class of what a call of \p Name (a def) returns, as seen from here.
  VarClass returnClass(llvm::StringRef Name) const;
  /// The class of item \p Index (-1: of every item) of what a call of
  /// \p Name returns, as seen from here.
  VarClass returnItemClass(llvm::StringRef Name, int Index) const;
  /// Whether \p Name, as seen from here, holds a list of tuples.
  bool holdsTuples(llvm::StringRef Name) const;
  /// What item \p Item of each of those tuples holds (none: its own code
  /// says nothing; Other: not such a list, or not a tensor).
  std::optional<VarClass> tupleItemClass(llvm::StringRef Name, int Item) const;
};

/// Builds the scope of \p Node (module, function_definition or lambda).
/// \p ParamClasses: what the arguments of a call run in place hold, by
/// parameter name (it wins over an annotation).
/// \p SelfAttributes: for a method, what the attributes of its first
/// parameter hold (`x = self.buf` is a tensor when buf holds one).
/// \p MethodDepth: how many levels of the methods a method calls on its
/// own object have their returns read (ReturnClasses.h).
std::unique_ptr<Scope>
makeScope(TSNode Node, Scope::Kind K, const Scope *Parent, const SourceFile &F,
          const Imports &I,
          const llvm::StringMap<VarClass> *ParamClasses = nullptr,
          const llvm::StringMap<VarClass> *SelfAttributes = nullptr,
          int MethodDepth = 1);

/// Host data written out: a list, tuple, number or boolean literal, or a
/// list comprehension.
/// The dict a `for` loop iterates the values of (`for v in d.values()`,
/// `for k, v in d.items()`; null: another loop).
TSNode dictLoopOf(TSNode For, const SourceFile &F);
bool isHostDataLiteral(TSNode Expr);
/// \p Expr is host data in \p S: such a literal, or a name of HostData.
bool isHostData(TSNode Expr, const Scope &S, const SourceFile &F);

/// \p Expr is a name that \p S's code binds only to containers it makes:
/// list, dict, set and tuple displays and comprehensions, `list()`,
/// `dict()`, `set()`, `tuple()`, `[x] * n` (not a parameter).
bool namesOwnContainer(TSNode Expr, const Scope &S, const SourceFile &F);

/// The class of the value \p Expr denotes in \p S.
VarClass classOfExpr(TSNode Expr, const Scope &S, const SourceFile &F,
                     const Imports &I);

/// The device a device argument names: "cuda", "cpu", or "" (unknown).
std::string deviceOf(TSNode Expr, const Scope &S, const SourceFile &F,
                     const Imports &I);

/// chunk(), split(), unbind(), tensor_split() of a tensor (a method, or
/// torch.chunk(t, ...)): the tensor expression, or a null node.
TSNode pieceListBase(TSNode Call, const SourceFile &F, const Imports &I,
                     const std::function<VarClass(TSNode)> &ClassOf);

} // namespace streamsafe::py

#endif // STREAMSAFE_LIB_PYTHON_SCOPE_H
