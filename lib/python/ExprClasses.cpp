//===--- ExprClasses.cpp - What a Python expression holds -----------------===//

#include "lib/python/ExprClasses.h"
#include "lib/model/ApiRows.h"
#include "lib/model/TensorMethods.h"
#include "lib/model/UseEvidence.h"
#include "lib/python/Api.h"
#include "lib/python/ClassesByUse.h"
#include "lib/python/Collectives.h"
#include "lib/python/Scope.h"
#include "lib/python/StreamContexts.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"

namespace streamsafe::py {
namespace infer {

Cls join(Cls A, Cls B) {
  if (!A)
    return B;
  if (!B)
    return A;
  return *A == *B ? A : Cls(VarClass::Other);
}

Cls classOfAnnotation(TSNode N, const SourceFile &F, const Imports &I) {
  if (is(N, "type") && !children(N).empty())
    N = children(N)[0];
  N = unparen(N);
  // Optional[X], Union[X, None], X | None: X (or None, which a stream
  // context and a record take as nothing to do).
  auto IsNone = [&](TSNode T) {
    T = unparen(T);
    if (is(T, "type") && !children(T).empty())
      T = unparen(children(T)[0]);
    return is(T, "none");
  };
  auto OneBesidesNone = [&](const std::vector<TSNode> &Members) -> TSNode {
    TSNode One{};
    for (TSNode M : Members) {
      if (IsNone(M))
        continue;
      if (!ts_node_is_null(One))
        return {};
      One = M;
    }
    return One;
  };
  if (is(N, "binary_operator") && F.text(field(N, "operator")) == "|")
    if (TSNode X = OneBesidesNone({field(N, "left"), field(N, "right")});
        !ts_node_is_null(X))
      return classOfAnnotation(X, F, I);
  if (is(N, "generic_type") || is(N, "subscript")) {
    TSNode Head = is(N, "subscript") ? field(N, "value") : children(N)[0];
    std::string Q = I.qualify(Head);
    llvm::StringRef Name = Q.empty() ? F.text(Head) : llvm::StringRef(Q);
    std::vector<TSNode> Members =
        is(N, "subscript")       ? fieldChildren(N, "subscript")
        : children(N).size() > 1 ? children(children(N)[1])
                                 : std::vector<TSNode>{};
    if (Name == "typing.Optional" || Name == "Optional" ||
        Name == "typing.Union" || Name == "Union")
      if (TSNode X = OneBesidesNone(Members); !ts_node_is_null(X))
        return classOfAnnotation(X, F, I);
  }
  // A string annotation: "torch.Tensor" is not followed. The classes are
  // the model's (torch.cuda.Stream and torch.Stream, as C++'s CUDAStream
  // and c10::Stream).
  switch (pythonClass(I.qualify(N))) {
  case ValueClass::Tensor:
    return VarClass::Tensor;
  case ValueClass::Stream:
    return VarClass::Stream;
  case ValueClass::Event:
    return VarClass::Event;
  default:
    return VarClass::Other;
  }
}

namespace {

// A generic annotation `Head[Members...]`: its head's name (without
// `typing.` or `collections.abc.`) and its members.
struct Generic {
  std::string Head;
  std::vector<TSNode> Members;
};

std::optional<Generic> genericOf(TSNode N, const SourceFile &F,
                                 const Imports &I) {
  if (is(N, "type") && !children(N).empty())
    N = children(N)[0];
  N = unparen(N);
  if (!is(N, "generic_type") && !is(N, "subscript"))
    return std::nullopt;
  TSNode Head = is(N, "subscript") ? field(N, "value") : children(N)[0];
  std::string Q = I.qualify(Head);
  llvm::StringRef Name = Q.empty() ? F.text(Head) : llvm::StringRef(Q);
  Name.consume_front("typing.");
  Name.consume_front("collections.abc.");
  Name.consume_front("collections.");
  Generic G;
  G.Head = Name.str();
  G.Members = is(N, "subscript")       ? fieldChildren(N, "subscript")
              : children(N).size() > 1 ? children(children(N)[1])
                                       : std::vector<TSNode>{};
  return G;
}

} // namespace

Cls valueClassOfAnnotation(TSNode N, const SourceFile &F, const Imports &I) {
  std::optional<Generic> G = genericOf(N, F, I);
  if (!G)
    return VarClass::Other;
  if (G->Head == "Optional" && G->Members.size() == 1)
    return valueClassOfAnnotation(G->Members[0], F, I);
  static const llvm::StringSet<> Mappings = {
      "Dict",        "dict",        "Mapping",    "MutableMapping",
      "OrderedDict", "DefaultDict", "defaultdict"};
  if (!Mappings.contains(G->Head) || G->Members.size() != 2)
    return VarClass::Other;
  return classOfAnnotation(G->Members[1], F, I);
}

Cls elementClassOfAnnotation(TSNode N, const SourceFile &F, const Imports &I) {
  std::optional<Generic> G = genericOf(N, F, I);
  if (!G)
    return VarClass::Other;
  llvm::StringRef Name = G->Head;
  std::vector<TSNode> &Members = G->Members;
  auto Unwrap = [](TSNode T) {
    T = unparen(T);
    if (is(T, "type") && !children(T).empty())
      T = unparen(children(T)[0]);
    return T;
  };
  if (Name == "Optional" && Members.size() == 1)
    return elementClassOfAnnotation(Members[0], F, I);
  bool Sequence = Name == "List" || Name == "list" || Name == "Sequence" ||
                  Name == "MutableSequence" || Name == "Iterable";
  // A tuple of one class, or of any length (`Tuple[T, ...]`).
  bool Tuple = Name == "Tuple" || Name == "tuple";
  if (Sequence && Members.size() == 1)
    return classOfAnnotation(Members[0], F, I);
  if (!Tuple || Members.empty())
    return VarClass::Other;
  Cls Of = classOfAnnotation(Members[0], F, I);
  for (size_t K = 1; K < Members.size(); ++K)
    if (!is(Unwrap(Members[K]), "ellipsis") &&
        classOfAnnotation(Members[K], F, I) != Of)
      return VarClass::Other;
  return Of;
}

std::optional<llvm::SmallVector<VarClass, 4>>
tupleItemsOfAnnotation(TSNode N, const SourceFile &F, const Imports &I) {
  std::optional<Generic> G = genericOf(N, F, I);
  if (!G || (G->Head != "Tuple" && G->Head != "tuple") || G->Members.empty())
    return std::nullopt;
  llvm::SmallVector<VarClass, 4> Items;
  for (TSNode M : G->Members) {
    TSNode T = unparen(M);
    if (is(T, "type") && !children(T).empty())
      T = unparen(children(T)[0]);
    if (is(T, "ellipsis"))
      return std::nullopt; // any length
    Items.push_back(classOfAnnotation(M, F, I).value_or(VarClass::Other));
  }
  return Items;
}

VarClass itemClass(llvm::ArrayRef<VarClass> Items, int Index) {
  if (Index >= 0)
    return size_t(Index) < Items.size() ? Items[Index] : VarClass::Other;
  Cls All;
  for (VarClass K : Items)
    All = join(All, K);
  return All.value_or(VarClass::Other);
}

TSNode castType(TSNode Call, const SourceFile &, const Imports &I) {
  Call = unparen(Call);
  if (!is(Call, "call") || I.qualify(field(Call, "function")) != "typing.cast")
    return {};
  std::vector<TSNode> Args = children(field(Call, "arguments"));
  if (Args.size() != 2 || is(Args[0], "keyword_argument"))
    return {};
  return Args[0];
}

Cls elementClass(TSNode C, int Index, const Lookup &L, const SourceFile &F,
                 const Imports &I);

Cls exprClass(TSNode N, const Lookup &L, const SourceFile &F,
              const Imports &I) {
  N = unparen(N);
  llvm::StringRef T = type(N);
  if (T == "identifier")
    return L(F.text(N));
  if (T == "call") {
    TSNode Fn = field(N, "function");
    std::string Q = I.qualify(Fn);
    // nullcontext() switches nothing: as None, it says nothing of what a
    // name that also holds a stream context is.
    if (Q == "contextlib.nullcontext")
      return std::nullopt;
    // cast(T, x): what T says x is.
    if (TSNode T = castType(N, F, I); !ts_node_is_null(T))
      return classOfAnnotation(T, F, I);
    if (!Q.empty()) {
      switch (apiOf(Q)) {
      case PyApi::NewStream:
      case PyApi::ExternalStream:
      case PyApi::CurrentStream:
      case PyApi::DefaultStream:
        return VarClass::Stream;
      case PyApi::NewEvent:
        return VarClass::Event;
      case PyApi::StreamContext:
        // A stream context kept to be entered later holds its stream
        // (StreamContexts.h); one of None, as nullcontext() below, none.
        if (switchesNothing(N, I))
          return std::nullopt;
        return VarClass::Stream;
      case PyApi::Collective:
        // An asynchronous one returns its work handle: an event recorded
        // on the group's stream.
        switch (collectiveMode(N, *collectiveRow(Q), F)) {
        case CollectiveMode::Async:
          return VarClass::Event;
        default:
          return VarClass::Other;
        }
      case PyApi::TorchFunction:
        return VarClass::Tensor;
      default:
        // A def another module of the project defines (the lookup of
        // "name()" asks the module scope: ImportedReturns.h).
        if (is(Fn, "identifier"))
          return L((F.text(Fn).str() + "()"));
        return VarClass::Other;
      }
    }
    // A def of the file: what it returns (the lookup of "name()").
    if (is(Fn, "identifier"))
      return L((F.text(Fn).str() + "()"));
    if (!is(Fn, "attribute"))
      return VarClass::Other;
    llvm::StringRef Method = F.text(field(Fn, "attribute"));
    if ((Method == "get" || Method == "pop") && L.DictValue)
      if (std::optional<Cls> Known = L.DictValue(field(Fn, "object")))
        return *Known;
    // A static method called through its class: what it returns.
    if (TSNode O = unparen(field(Fn, "object")); is(O, "identifier"))
      if (Cls R = L((F.text(O).str() + "." + Method.str() + "()"));
          R && *R != VarClass::Other)
        return R;
    Cls Recv = exprClass(field(Fn, "object"), L, F, I);
    if (!Recv)
      return std::nullopt;
    // next(it).cuda(non_blocking=True): a use only a tensor has, of what
    // code the analysis does not see returns.
    if (*Recv == VarClass::Other && is(unparen(field(Fn, "object")), "call") &&
        opaqueValue(field(Fn, "object"), F, I) &&
        callProvesTensor(N, Method, F))
      Recv = VarClass::Tensor;
    if (*Recv == VarClass::Tensor) {
      switch (tensorMethod(Method)) {
      case ApiEffect::TensorOp:
      case ApiEffect::TensorInPlace:
      case ApiEffect::TensorView:
      case ApiEffect::TensorCopyFrom:
      case ApiEffect::TensorToHost:
      case ApiEffect::TensorTo:
      case ApiEffect::TensorPinMemory:
        return VarClass::Tensor;
      default:
        return VarClass::Other;
      }
    }
    if (*Recv == VarClass::Stream)
      if (const ApiRow *R = pythonApi(("torch.cuda.Stream." + Method.str()));
          R && R->Entry.Effect == ApiEffect::EventRecord)
        return VarClass::Event; // s.record_event(): a new event
    // work.get_future(): the work's future waits as the work does.
    if (*Recv == VarClass::Event && Method == "get_future")
      return VarClass::Event;
    return VarClass::Other;
  }
  if (T == "attribute") {
    if (L.Attribute)
      if (std::optional<Cls> Known = L.Attribute(N))
        return *Known;
    Cls Recv = exprClass(field(N, "object"), L, F, I);
    if (!Recv)
      return std::nullopt;
    return *Recv == VarClass::Tensor &&
                   isViewAttribute(F.text(field(N, "attribute")))
               ? VarClass::Tensor
               : VarClass::Other;
  }
  if (T == "subscript") {
    if (L.DictValue)
      if (std::optional<Cls> Known = L.DictValue(field(N, "value")))
        return *Known;
    Cls Recv = exprClass(field(N, "value"), L, F, I);
    if (!Recv)
      return std::nullopt;
    if (*Recv == VarClass::Tensor)
      return VarClass::Tensor;
    // xs[0] of a list of tensors (not a slice: that is a list).
    std::vector<TSNode> Index = fieldChildren(N, "subscript");
    if (Index.size() == 1 && is(Index[0], "integer"))
      return elementClass(field(N, "value"), -1, L, F, I);
    return VarClass::Other;
  }
  if (T == "comparison_operator" && identityComparison(F, N))
    return VarClass::Other;
  if (T == "binary_operator" || T == "comparison_operator") {
    // An operator with a tensor operand gives a tensor (a scalar operand
    // is broadcast).
    bool Unset = false, Tensor = false;
    for (TSNode C : children(N)) {
      Cls X = exprClass(C, L, F, I);
      if (!X)
        Unset = true;
      else if (*X == VarClass::Tensor)
        Tensor = true;
    }
    if (Tensor)
      return VarClass::Tensor;
    return Unset ? std::nullopt : Cls(VarClass::Other);
  }
  if (T == "unary_operator")
    return exprClass(field(N, "argument"), L, F, I);
  // `a or b`, `a and b`: one of the two (None says nothing of the other).
  if (T == "boolean_operator") {
    TSNode A = unparen(field(N, "left")), B = unparen(field(N, "right"));
    if (is(B, "none"))
      return exprClass(A, L, F, I);
    if (is(A, "none"))
      return exprClass(B, L, F, I);
    return join(exprClass(A, L, F, I), exprClass(B, L, F, I));
  }
  if (T == "conditional_expression") {
    std::vector<TSNode> C = children(N);
    // An arm that is None says nothing of what the value is otherwise
    // (`e = s.record_event() if c else None`), as a binding to None does.
    if (C.size() == 3 && is(unparen(C[2]), "none"))
      return exprClass(C[0], L, F, I);
    if (C.size() == 3 && is(unparen(C[0]), "none"))
      return exprClass(C[2], L, F, I);
    if (C.size() == 3)
      return join(exprClass(C[0], L, F, I), exprClass(C[2], L, F, I));
  }
  return VarClass::Other;
}

bool opaqueValue(TSNode N, const SourceFile &F, const Imports &I) {
  N = unparen(N);
  // another object's attribute: what it holds is not known here.
  if (is(N, "attribute"))
    return I.qualify(N).empty();
  if (!is(N, "call"))
    return false;
  TSNode Fn = unparen(field(N, "function"));
  std::string Q = I.qualify(Fn);
  if (!Q.empty())
    return apiOf(Q) == PyApi::None && !llvm::StringRef(Q).starts_with("torch.");
  if (is(Fn, "identifier")) {
    static const llvm::StringSet<> Builtins = {
        "len",       "int",      "float", "str",      "bool",      "range",
        "list",      "dict",     "tuple", "set",      "frozenset", "isinstance",
        "type",      "id",       "hash",  "repr",     "print",     "sorted",
        "enumerate", "zip",      "map",   "filter",   "open",      "round",
        "hasattr",   "callable", "iter",  "reversed", "super",     "object",
        "format",    "divmod",   "ord",   "chr",      "bytes",     "any",
        "all"};
    return !Builtins.contains(F.text(Fn));
  }
  return is(Fn, "attribute");
}

/// The class of element \p Index (-1: of every element) of the container
/// \p C: a list or tuple literal, a comprehension, chunk() and its kin,
/// list(...) or tuple(...) of one, or a name holding a list of tensors.
/// Anything else holds nothing followed (Other); an empty literal, nothing
/// yet (unset).
Cls elementClass(TSNode C, int Index, const Lookup &L, const SourceFile &F,
                 const Imports &I) {
  C = unparen(C);
  if (Index == DictKeyIndex)
    return VarClass::Other; // keys are not followed
  if (Index == DictValueIndex)
    return L.DictValue ? L.DictValue(C).value_or(VarClass::Other)
                       : Cls(VarClass::Other);
  llvm::StringRef T = type(C);
  if (int Item = itemOfEachElement(Index); Item >= 0) {
    // for a, b in pairs: item Item of each tuple of a list of tuples.
    if (T == "identifier")
      return L.Column(F.text(C), Item);
    if (T != "list" && T != "tuple")
      return VarClass::Other;
    Cls All;
    for (TSNode E : children(C)) {
      E = unparen(E);
      std::vector<TSNode> Items = children(E);
      if (!is(E, "tuple") || size_t(Item) >= Items.size())
        return VarClass::Other;
      All = join(All, exprClass(Items[Item], L, F, I));
    }
    return All;
  }
  if (T == "list" || T == "tuple" || T == "expression_list") {
    std::vector<TSNode> Items = children(C);
    for (TSNode E : Items)
      if (is(E, "list_splat") || is(E, "starred_expression"))
        return VarClass::Other;
    if (Index >= 0)
      return size_t(Index) < Items.size() ? exprClass(Items[Index], L, F, I)
                                          : Cls(VarClass::Other);
    Cls All;
    for (TSNode E : Items)
      All = join(All, exprClass(E, L, F, I));
    return All;
  }
  if (T == "identifier")
    return L.List(F.text(C));
  if (T == "list_comprehension" || T == "generator_expression") {
    // The element's class, its variables bound to elements of what they
    // iterate.
    llvm::StringMap<Cls> Vars;
    for (TSNode Clause : children(C))
      if (is(Clause, "for_in_clause") &&
          is(unparen(field(Clause, "left")), "identifier"))
        Vars[F.text(unparen(field(Clause, "left")))] =
            elementClass(field(Clause, "right"), -1, L, F, I);
    Lookup Inner = L;
    Inner.Name = [&](llvm::StringRef Name) -> Cls {
      auto It = Vars.find(Name);
      return It != Vars.end() ? It->second : L(Name);
    };
    Cls Body = exprClass(field(C, "body"), Inner, F, I);
    return Body == Cls(VarClass::Tensor) ? Body : Cls(VarClass::Other);
  }
  if (T != "call")
    return VarClass::Other;
  TSNode Fn = field(C, "function");
  std::vector<TSNode> Args = children(field(C, "arguments"));
  // cast(Tuple[A, B], x): what the annotation says each item is.
  if (TSNode T = castType(C, F, I); !ts_node_is_null(T)) {
    std::optional<llvm::SmallVector<VarClass, 4>> Items =
        tupleItemsOfAnnotation(T, F, I);
    return Items ? Cls(itemClass(*Items, Index))
                 : elementClassOfAnnotation(T, F, I);
  }
  // f(...) of a def, self.m(...) of a method of the object's class: what
  // the def returns at that item.
  if (L.Item) {
    TSNode O = is(Fn, "attribute") ? unparen(field(Fn, "object")) : TSNode{};
    std::string Callee =
        is(Fn, "identifier") ? F.text(Fn).str()
        : is(O, "identifier")
            ? F.text(O).str() + "." + F.text(field(Fn, "attribute")).str()
            : std::string();
    if (!Callee.empty())
      if (Cls R = L.Item(Callee, Index); R && *R != VarClass::Other)
        return R;
  }
  if (is(Fn, "identifier") && (F.text(Fn) == "list" || F.text(Fn) == "tuple") &&
      Args.size() == 1 && L(F.text(Fn)) == Cls(VarClass::Other) &&
      !is(Args[0], "keyword_argument"))
    return elementClass(Args[0], Index, L, F, I);
  // chunk() of what is not known yet: nothing known yet either.
  bool Unset = false;
  std::function<VarClass(TSNode)> ClassOf = [&](TSNode N) {
    Cls X = exprClass(N, L, F, I);
    Unset |= !X;
    return X.value_or(VarClass::Other);
  };
  if (!ts_node_is_null(pieceListBase(C, F, I, ClassOf)))
    return VarClass::Tensor;
  // values, indices = x.sort(), torch.topk(x, k): new tensors.
  // (Unpacked, `a, b = x.sort()` says x is one: UseEvidence.h.)
  if (is(Fn, "attribute") &&
      returnsTensorTuple(F.text(field(Fn, "attribute"))) &&
      ((Index >= 0 &&
        pyUnpackedResultProvesTensor(F.text(field(Fn, "attribute")))) ||
       ClassOf(field(Fn, "object")) == VarClass::Tensor))
    return VarClass::Tensor;
  if (!is(Fn, "attribute") || !torchBareName(I.qualify(Fn)).empty())
    if (returnsTensorTuple(torchBareName(I.qualify(Fn))))
      return VarClass::Tensor;
  return Unset ? Cls() : Cls(VarClass::Other);
}

} // namespace infer

using namespace infer;

VarClass classOfExpr(TSNode Expr, const Scope &S, const SourceFile &F,
                     const Imports &I) {
  return scopedClass(Expr, S, F, I, nullptr).value_or(VarClass::Other);
}

Cls scopedClass(TSNode Expr, const Scope &S, const SourceFile &F,
                const Imports &I,
                std::function<std::optional<Cls>(TSNode)> Attribute) {
  Lookup L;
  L.Attribute = std::move(Attribute);
  L.Name = [&S](llvm::StringRef Name) -> Cls {
    return Name.ends_with("()") ? S.returnClass(Name.drop_back(2))
                                : S.classOf(Name);
  };
  L.Item = [&S](llvm::StringRef Def, int Index) -> Cls {
    return S.returnItemClass(Def, Index);
  };
  L.List = [&S](llvm::StringRef Name) -> Cls {
    const Scope *O = S.owner(Name);
    return O && O->TensorLists.contains(Name) ? Cls(VarClass::Tensor)
                                              : Cls(VarClass::Other);
  };
  L.Column = [&S](llvm::StringRef Name, int Item) -> Cls {
    return S.tupleItemClass(Name, Item);
  };
  return exprClass(Expr, L, F, I);
}

TSNode pieceListBase(TSNode Call, const SourceFile &F, const Imports &I,
                     const std::function<VarClass(TSNode)> &ClassOf) {
  Call = unparen(Call);
  if (!is(Call, "call"))
    return {};
  auto Splits = [](llvm::StringRef Name) {
    return tensorMethod(Name) == ApiEffect::TensorViewList;
  };
  TSNode Fn = field(Call, "function");
  std::string Q = I.qualify(Fn);
  if (!Q.empty()) {
    llvm::StringRef Rest = Q;
    std::vector<TSNode> Args = children(field(Call, "arguments"));
    if (Rest.consume_front("torch.") && Splits(Rest) && !Args.empty() &&
        !is(Args[0], "keyword_argument") &&
        ClassOf(Args[0]) == VarClass::Tensor)
      return Args[0];
    return {};
  }
  if (is(Fn, "attribute") && Splits(F.text(field(Fn, "attribute"))) &&
      ClassOf(field(Fn, "object")) == VarClass::Tensor)
    return field(Fn, "object");
  return {};
}

} // namespace streamsafe::py
