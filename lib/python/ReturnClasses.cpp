//===--- ReturnClasses.cpp - What a def of the project returns ------------===//

#include "lib/python/ReturnClasses.h"
#include "lib/python/ExprClasses.h"
#include "lib/python/HelperIndex.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"

namespace streamsafe::py {

using namespace infer;

static bool followedClass(VarClass K) {
  return K == VarClass::Tensor || K == VarClass::Stream || K == VarClass::Event;
}

bool ReturnShape::followed() const {
  return followedClass(Whole) || llvm::any_of(Items, followedClass);
}

/// The items of a returned tuple display (`return out, aux`; none: not
/// one, or one with a starred item).
static std::optional<std::vector<TSNode>> tupleItems(TSNode Returned) {
  Returned = unparen(Returned);
  if (!is(Returned, "tuple") && !is(Returned, "expression_list"))
    return std::nullopt;
  std::vector<TSNode> Items = children(Returned);
  for (TSNode E : Items)
    if (is(E, "list_splat") || is(E, "starred_expression"))
      return std::nullopt;
  return Items;
}

/// The shape the annotation of \p Def says (none: not annotated).
static std::optional<ReturnShape>
annotatedShape(TSNode Def, const SourceFile &F, const Imports &I) {
  TSNode Annotation = field(Def, "return_type");
  if (ts_node_is_null(Annotation))
    return std::nullopt;
  ReturnShape R;
  R.Whole = classOfAnnotation(Annotation, F, I).value_or(VarClass::Other);
  if (auto Items = tupleItemsOfAnnotation(Annotation, F, I))
    R.Items = *Items;
  return R;
}

/// Whether \p Def is annotated or returns a value somewhere: else it gives
/// None, and its scope need not be made.
static bool returnsValue(TSNode Def) {
  if (!ts_node_is_null(field(Def, "return_type")))
    return true;
  bool Valued = false;
  ownCode(field(Def, "body"), [&](TSNode N) {
    Valued |= is(N, "return_statement") && !children(N).empty();
  });
  return Valued;
}

ReturnShape returnShapeOf(TSNode Def, const Scope &Parent, const SourceFile &F,
                          const Imports &I, int MethodDepth) {
  // The annotation, when written, says it whatever the body does.
  if (std::optional<ReturnShape> A = annotatedShape(Def, F, I))
    return *A;
  auto S =
      makeScope(Def, Scope::Def, &Parent, F, I, nullptr, nullptr, MethodDepth);
  return returnShapeIn(Def, *S, F, I);
}

ReturnShape returnShapeIn(TSNode Def, const Scope &S, const SourceFile &F,
                          const Imports &I) {
  if (std::optional<ReturnShape> A = annotatedShape(Def, F, I))
    return *A;
  ReturnShape R;
  Cls Whole;
  llvm::SmallVector<Cls, 4> Items;
  bool Tuples = true, Any = false;
  std::vector<TSNode> Work{field(Def, "body")};
  while (!Work.empty()) {
    TSNode X = Work.back();
    Work.pop_back();
    llvm::StringRef T = type(X);
    if (T == "yield")
      return ReturnShape(); // a generator
    if (T == "function_definition" || T == "lambda" || T == "class_definition")
      continue;
    if (T != "return_statement") {
      for (TSNode C : children(X))
        Work.push_back(C);
      continue;
    }
    std::vector<TSNode> C = children(X);
    Whole = join(Whole, C.size() == 1 ? Cls(classOfExpr(C[0], S, F, I))
                                      : Cls(VarClass::Other));
    std::optional<std::vector<TSNode>> Returned =
        C.size() == 1 ? tupleItems(C[0]) : std::nullopt;
    if (!Returned || (Any && Returned->size() != Items.size())) {
      Tuples = false;
      continue;
    }
    Items.resize(Returned->size());
    for (size_t K = 0; K < Returned->size(); ++K)
      Items[K] = join(Items[K], classOfExpr((*Returned)[K], S, F, I));
    Any = true;
  }
  R.Whole = Whole.value_or(VarClass::Other);
  if (Tuples && Any)
    for (Cls K : Items)
      R.Items.push_back(K.value_or(VarClass::Other));
  return R;
}

void recordReturns(Scope &S, llvm::StringRef Name, const ReturnShape &R) {
  if (followedClass(R.Whole))
    S.Returns[Name] = R.Whole;
  if (llvm::any_of(R.Items, followedClass))
    S.ReturnItems[Name] = R.Items;
}

void addMethodReturns(TSNode Def, Scope &S, const SourceFile &F,
                      const Imports &I, int MethodDepth) {
  if (MethodDepth <= 0 || staticMethod(Def, F))
    return;
  TSNode Class = classOf(Def);
  std::vector<std::string> Params = paramNames(Def, F);
  if (ts_node_is_null(Class) || Params.empty())
    return;
  const std::string &Self = Params.front();
  llvm::StringSet<> Seen;
  ownCode(field(Def, "body"), [&](TSNode N) {
    if (!is(N, "call"))
      return;
    TSNode Fn = field(N, "function");
    if (!is(Fn, "attribute"))
      return;
    TSNode O = unparen(field(Fn, "object"));
    llvm::StringRef Name = F.text(field(Fn, "attribute"));
    // (A call whose value is dropped says nothing of a name.)
    if (!is(O, "identifier") || F.text(O) != Self ||
        is(ts_node_parent(N), "expression_statement") ||
        !Seen.insert(Name).second)
      return;
    TSNode M = methodOf(Class, Name, F);
    if (ts_node_is_null(M) || M.id == Def.id || !returnsValue(M))
      return;
    const Scope &From = S.Parent ? *S.Parent : S;
    if (&From != S.ModuleScope || MethodDepth != 1) {
      recordReturns(S, Self + "." + Name.str(),
                    returnShapeOf(M, From, F, I, MethodDepth - 1));
      return;
    }
    // A class of the module: read once, for every method that calls it.
    auto [It, New] = From.MethodShapes.try_emplace(M.id);
    if (New)
      It->second = returnShapeOf(M, From, F, I, 0);
    recordReturns(S, Self + "." + Name.str(), It->second);
  });
}

} // namespace streamsafe::py
