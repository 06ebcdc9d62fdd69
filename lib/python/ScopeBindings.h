//===--- ScopeBindings.h - What a Python scope binds, from its syntax -*- C++
//-*-===//
//
// The first half of a scope's inference (Scope.cpp's makeScope): each name
// the scope binds, with the values, elements, appends and annotations
// that bind it, read from the syntax alone. makeScope then solves what
// each name holds.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_PYTHON_SCOPEBINDINGS_H
#define STREAMSAFE_LIB_PYTHON_SCOPEBINDINGS_H

#include "lib/python/ExprClasses.h"
#include "lib/python/Scope.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include <utility>
#include <vector>

namespace streamsafe::py {

/// Names a target binds (an identifier, or the identifiers of a tuple or
/// list pattern).
void targetNames(TSNode N, const SourceFile &F,
                 std::vector<llvm::StringRef> &Out);

/// Whether the def \p Def binds \p Name itself (a parameter, or a name
/// its own code assigns): then its \p Name is not the enclosing scope's.
bool defBinds(TSNode Def, llvm::StringRef Name, const SourceFile &F);

/// Collects what a scope binds: each name with the values assigned to it
/// (null node: bound to something not followed).
class ScopeBindings {
public:
  explicit ScopeBindings(const SourceFile &F) : F(F) {}

  void walk(TSNode N) {
    if (ts_node_is_null(N))
      return;
    llvm::StringRef T = type(N);
    if (T == "function_definition" || T == "class_definition") {
      bind(F.text(field(N, "name")), {});
      if (T == "function_definition") {
        Defs.push_back(N);
        closureAppends(N);
      }
      for (TSNode D : fieldChildren(N, "decorator"))
        walk(D);
      return; // its body is a scope of its own
    }
    if (T == "lambda" || T == "list_comprehension" ||
        T == "set_comprehension" || T == "dictionary_comprehension" ||
        T == "generator_expression")
      return; // scopes of their own (comprehensions are opaque)
    if (T == "global_statement" || T == "nonlocal_statement") {
      for (TSNode C : children(N))
        NotLocal.insert(F.text(C));
      return;
    }
    if (T == "assignment") {
      TSNode Left = field(N, "left"), Right = field(N, "right");
      // `x: torch.Tensor = f()`: what the annotation says x holds.
      if (is(unparen(Left), "identifier") && !ts_node_is_null(field(N, "type")))
        Annotated[F.text(unparen(Left))].push_back(field(N, "type"));
      if (is(unparen(Left), "identifier") && !ts_node_is_null(Right) &&
          !is(Right, "assignment"))
        bind(F.text(unparen(Left)), Right);
      else if (!ts_node_is_null(Right) && !is(Right, "assignment") &&
               flatPattern(Left)) {
        // a, b = pieces: each name is bound to one element.
        std::vector<TSNode> Names = children(unparen(Left));
        for (size_t K = 0; K < Names.size(); ++K)
          Elements[F.text(Names[K])].push_back({Right, int(K)});
      } else {
        std::vector<llvm::StringRef> Names;
        targetNames(Left, F, Names);
        for (llvm::StringRef Name : Names)
          bind(Name, {});
      }
    } else if (T == "augmented_assignment") {
      // x += y keeps x's class when x is a tensor (an in-place op).
      std::vector<llvm::StringRef> Names;
      targetNames(field(N, "left"), F, Names);
      for (llvm::StringRef Name : Names)
        Augmented.insert(Name);
    } else if (TSNode Dict = T == "for_statement" ? dictLoopOf(N, F) : TSNode{};
               !ts_node_is_null(Dict)) {
      // for v in d.values(), for k, v in d.items(): v is some value of d.
      std::vector<llvm::StringRef> Names;
      targetNames(field(N, "left"), F, Names);
      // k is some key: its uses may say it is a tensor.
      for (llvm::StringRef Name : llvm::ArrayRef(Names).drop_back())
        Elements[Name].push_back({Dict, infer::DictKeyIndex});
      Elements[Names.back()].push_back({Dict, infer::DictValueIndex});
    } else if (T == "for_statement" &&
               is(unparen(field(N, "left")), "identifier")) {
      Elements[F.text(unparen(field(N, "left")))].push_back(
          {field(N, "right"), -1});
    } else if (T == "for_statement" && flatPattern(field(N, "left"))) {
      // for a, b in pairs: each name is one item of every element.
      std::vector<TSNode> Names = children(unparen(field(N, "left")));
      for (size_t K = 0; K < Names.size(); ++K)
        Elements[F.text(Names[K])].push_back(
            {field(N, "right"), infer::eachElementItem(int(K))});
    } else if (T == "call" && is(field(N, "function"), "attribute") &&
               is(field(field(N, "function"), "object"), "identifier") &&
               F.text(field(field(N, "function"), "attribute")) == "append") {
      // xs.append(t): what a list holds.
      std::vector<TSNode> Args = children(field(N, "arguments"));
      if (Args.size() == 1)
        Appended[F.text(field(field(N, "function"), "object"))].push_back(
            Args[0]);
    } else if (T == "for_statement" || T == "for_in_clause") {
      std::vector<llvm::StringRef> Names;
      targetNames(field(N, "left"), F, Names);
      for (llvm::StringRef Name : Names)
        bind(Name, {});
    } else if (T == "as_pattern") {
      std::vector<llvm::StringRef> Names;
      for (TSNode A : fieldChildren(N, "alias"))
        for (TSNode C : children(A))
          targetNames(C, F, Names);
      for (TSNode A : fieldChildren(N, "alias"))
        targetNames(A, F, Names);
      for (llvm::StringRef Name : Names)
        bind(Name, {});
    } else if (T == "except_clause") {
      for (TSNode C : children(N))
        if (is(C, "as_pattern"))
          walk(C);
    } else if (T == "named_expression") {
      bind(F.text(field(N, "name")), field(N, "value"));
    } else if (T == "import_statement" || T == "import_from_statement") {
      return;
    }
    uint32_t Count = ts_node_named_child_count(N);
    for (uint32_t I = 0; I < Count; ++I)
      walk(ts_node_named_child(N, I));
  }

  void bind(llvm::StringRef Name, TSNode Value) {
    Values[Name].push_back(Value);
  }

  /// A def's writes to the names it declares global, which are the
  /// module's bindings too (a stream made on first use:
  /// `global S; if S is None: S = torch.cuda.Stream()`). A write that is
  /// not a plain assignment binds to something not followed.
  void globalWrites(TSNode Def) {
    TSNode Body = field(Def, "body");
    if (ts_node_is_null(Body))
      return;
    llvm::StringSet<> Declared;
    ownCode(Body, [&](TSNode N) {
      if (is(N, "global_statement"))
        for (TSNode C : children(N))
          Declared.insert(F.text(C));
    });
    if (Declared.empty())
      return;
    for (const auto &D : Declared)
      MadeOnFirstUse.insert(D.getKey());
    auto BindTargets = [&](TSNode Target) {
      std::vector<llvm::StringRef> Names;
      targetNames(Target, F, Names);
      for (llvm::StringRef Name : Names)
        if (Declared.contains(Name))
          bind(Name, {});
    };
    ownCode(Body, [&](TSNode N) {
      if (is(N, "assignment")) {
        TSNode Left = unparen(field(N, "left")), Right = field(N, "right");
        if (is(Left, "identifier") && Declared.contains(F.text(Left)))
          bind(F.text(Left), is(Right, "assignment") ? TSNode{} : Right);
        else
          BindTargets(Left);
      } else if (is(N, "augmented_assignment") || is(N, "for_statement")) {
        BindTargets(field(N, "left"));
      } else if (is(N, "delete_statement")) {
        for (TSNode C : children(N))
          BindTargets(C);
      } else if (is(N, "named_expression")) {
        BindTargets(field(N, "name"));
      }
    });
  }

  /// A nested def's appends to a list of this scope (a name the def does
  /// not bind): what the list holds when the closure runs.
  void closureAppends(TSNode Def) {
    ScopeBindings Inner(F);
    for (TSNode C : children(field(Def, "body")))
      Inner.walk(C);
    for (const auto &E : Inner.Appended)
      if (!Inner.bindsOwn(Def, E.getKey()))
        for (TSNode A : E.second)
          ClosureAppended[E.getKey()].push_back(A);
  }

  /// Whether \p Def, whose body this walked, binds \p Name itself.
  bool bindsOwn(TSNode Def, llvm::StringRef Name) const;

  /// A tuple or list pattern of plain names.
  bool flatPattern(TSNode N) {
    N = unparen(N);
    if (!is(N, "pattern_list") && !is(N, "tuple_pattern") &&
        !is(N, "list_pattern"))
      return false;
    std::vector<TSNode> C = children(N);
    return !C.empty() &&
           llvm::all_of(C, [](TSNode X) { return is(X, "identifier"); });
  }

  const SourceFile &F;
  llvm::StringMap<std::vector<TSNode>> Values;
  llvm::StringMap<std::vector<std::pair<TSNode, int>>> Elements;
  llvm::StringMap<std::vector<TSNode>> Appended;
  /// Appends in nested defs to this scope's names (closureAppends).
  llvm::StringMap<std::vector<TSNode>> ClosureAppended;
  /// Locals with a type annotation (`x: torch.Tensor = ...`).
  llvm::StringMap<std::vector<TSNode>> Annotated;
  llvm::StringSet<> NotLocal;
  llvm::StringSet<> Augmented;
  /// Module names a def declares global and assigns (made on first use).
  llvm::StringSet<> MadeOnFirstUse;
  std::vector<TSNode> Defs;
};

} // namespace streamsafe::py

#endif // STREAMSAFE_LIB_PYTHON_SCOPEBINDINGS_H
