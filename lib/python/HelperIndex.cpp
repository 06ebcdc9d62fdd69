//===--- HelperIndex.cpp - What a file defines, for helpers ---------------===//
//
// The file-wide questions of HelperIndex.h, and the def and class syntax
// helpers run in place read (parameters, decorators, methods, a
// @contextmanager's yield).
//
//===----------------------------------------------------------------------===//

#include "lib/python/HelperIndex.h"
#include "lib/model/Arguments.h"
#include "lib/model/UseEvidence.h"
#include "lib/python/Api.h"
#include "lib/python/Builder.h"
#include "lib/python/ClassesByUse.h"
#include "lib/python/ExprClasses.h"
#include "lib/python/StreamContexts.h"
#include "llvm/ADT/STLExtras.h"

namespace streamsafe::py {

/// The parameter names of a def, in order.
std::vector<std::string> paramNames(TSNode Def, const SourceFile &F) {
  std::vector<std::string> Names;
  for (TSNode P : children(field(Def, "parameters"))) {
    TSNode Name = P;
    if (is(P, "typed_parameter"))
      Name = children(P).empty() ? P : children(P)[0];
    else if (is(P, "default_parameter") || is(P, "typed_default_parameter"))
      Name = field(P, "name");
    // *args, **kwargs, `*`, `/`: what follows is not positional.
    if (!is(Name, "identifier"))
      break;
    Names.push_back(F.text(Name).str());
  }
  return Names;
}

bool decorated(TSNode Def) {
  return is(ts_node_parent(Def), "decorated_definition");
}

/// The class a def is a method of (null: none).
bool baseless(TSNode Class, const SourceFile &F) {
  TSNode Bases = field(Class, "superclasses");
  if (ts_node_is_null(Bases))
    return true;
  for (TSNode B : children(Bases))
    if (!is(B, "keyword_argument") &&
        !(is(B, "identifier") && F.text(B) == "object"))
      return false;
  return true;
}

bool threadSubclass(TSNode Class, const SourceFile &F, const Imports &I) {
  TSNode Bases = field(Class, "superclasses");
  if (ts_node_is_null(Bases))
    return false;
  unsigned Thread = 0, Other = 0;
  for (TSNode B : children(Bases))
    if (!is(B, "keyword_argument"))
      ++(apiOf(I.qualify(B)) == PyApi::Thread ? Thread : Other);
  return Thread == 1 && !Other && !ts_node_is_null(methodOf(Class, "run", F));
}

TSNode classOf(TSNode Def) {
  TSNode P = ts_node_parent(Def);
  if (is(P, "decorated_definition"))
    P = ts_node_parent(P);
  if (!is(P, "block"))
    return TSNode{};
  P = ts_node_parent(P);
  return is(P, "class_definition") ? P : TSNode{};
}

/// The undecorated method \p Name defined in \p Class's body (null: none).
TSNode methodOf(TSNode Class, llvm::StringRef Name, const SourceFile &F) {
  for (TSNode C : children(field(Class, "body")))
    if (is(C, "function_definition") && F.text(field(C, "name")) == Name)
      return C;
  return TSNode{};
}

std::vector<TSNode> methodsWithSelf(TSNode Class, const SourceFile &F) {
  std::vector<TSNode> Out;
  for (TSNode M : children(field(Class, "body"))) {
    if (is(M, "decorated_definition"))
      M = field(M, "definition");
    if (is(M, "function_definition") && !paramNames(M, F).empty() &&
        !staticMethod(M, F))
      Out.push_back(M);
  }
  return Out;
}

/// Whether a def's own code uses the stream API (the model's stream
/// effects, as the C++ pre-scan mentionsStreamApis asks): a stream, event
/// or guard API, a stream or event method, a non_blocking copy.
static bool scanForStreams(TSNode Def, const SourceFile &F, const Imports &I) {
  bool Found = false;
  ownCode(field(Def, "body"), [&](TSNode X) {
    if (Found)
      return;
    if (is(X, "keyword_argument") &&
        F.text(field(X, "name")) == arguments::NonBlocking) {
      Found = true;
      return;
    }
    if (!is(X, "call"))
      return;
    TSNode Fn = field(X, "function");
    if (usesStreams(apiOf(I.qualify(Fn))) || streamContextCall(X, F, I)) {
      Found = true;
      return;
    }
    if (is(Fn, "attribute"))
      Found = isStreamMethod(F.text(field(Fn, "attribute")));
  });
  return Found;
}

/// The stream and event attributes of \p Class's objects: `self.x = v` in
/// its methods, every v a stream (or every v an event).
static llvm::StringMap<VarClass> scanAttributes(TSNode Class,
                                                const Scope &Module,
                                                const SourceFile &F,
                                                const Imports &I) {
  // Two passes: `self.x = self.x.pin_memory()` (or `self.y = self.x + 1`)
  // holds what the first pass found x holds; a value not known yet says
  // nothing.
  llvm::StringMap<infer::Cls> Before;
  llvm::StringMap<infer::Cls> Seen;
  llvm::StringSet<> Evidence; // attributes a use says are tensors
  std::vector<std::pair<TSNode, std::unique_ptr<Scope>>> Methods;
  for (TSNode M : methodsWithSelf(Class, F))
    Methods.emplace_back(
        M, makeScope(M, Scope::Def, &Module, F, I, nullptr, nullptr, 0));
  // `self.x` of a method whose object is named \p Self: what the pass
  // before found x holds.
  auto KnownAttribute = [&](std::string Self) {
    return [&Before, &F, Self](TSNode A) -> std::optional<infer::Cls> {
      TSNode O = unparen(field(A, "object"));
      if (!is(O, "identifier") || F.text(O) != Self)
        return std::nullopt;
      auto It = Before.find(F.text(field(A, "attribute")));
      return It == Before.end() ? infer::Cls() : It->second;
    };
  };
  for (int Pass = 0; Pass < 2; ++Pass) {
    Seen.clear();
    // What each method returns, as far as the attributes known so far say
    // (`return self.buf`, `return x.to(...)`): `self.x = self.m(...)`
    // holds it.
    llvm::StringMap<infer::Cls> Returns;
    for (const auto &Method : Methods) {
      TSNode M = Method.first;
      std::string Self = paramNames(M, F)[0];
      auto Attribute = KnownAttribute(Self);
      infer::Cls R;
      bool Any = false;
      ownCode(field(M, "body"), [&](TSNode X) {
        if (is(X, "yield")) {
          R = infer::Cls(VarClass::Other);
          Any = true;
        }
        if (!is(X, "return_statement"))
          return;
        std::vector<TSNode> C = children(X);
        R = infer::join(R, C.size() == 1 ? scopedClass(C[0], *Method.second, F,
                                                       I, Attribute)
                                         : infer::Cls(VarClass::Other));
        Any = true;
      });
      if (Any && !decorated(M))
        Returns[F.text(field(M, "name"))] = R;
    }
    for (const auto &Method : Methods) {
      TSNode M = Method.first;
      const Scope *S = Method.second.get();
      std::string Self = paramNames(M, F)[0];
      auto Attribute = KnownAttribute(Self);
      // `self.m(...)` of a method of the class: what m returns.
      auto OwnMethod = [&](TSNode V) -> std::optional<infer::Cls> {
        V = unparen(V);
        TSNode Fn = is(V, "call") ? field(V, "function") : TSNode{};
        if (!is(Fn, "attribute") ||
            F.text(unparen(field(Fn, "object"))) != Self)
          return std::nullopt;
        auto It = Returns.find(F.text(field(Fn, "attribute")));
        if (It == Returns.end())
          return std::nullopt;
        return It->second;
      };
      ownCode(field(M, "body"), [&](TSNode X) {
        bool Assign = is(X, "assignment");
        if (!Assign && !is(X, "augmented_assignment"))
          return;
        std::vector<TSNode> Targets{unparen(field(X, "left"))};
        if (is(Targets[0], "pattern_list") || is(Targets[0], "tuple_pattern"))
          Targets = children(Targets[0]);
        for (TSNode T : Targets) {
          if (!is(T, "attribute") || F.text(field(T, "object")) != Self)
            continue;
          // `self.x = None` says nothing of the class x holds otherwise.
          TSNode Value = Assign && Targets.size() == 1
                             ? withoutNone(field(X, "right"))
                             : field(X, "right");
          if (Assign && Targets.size() == 1 && ts_node_is_null(Value))
            continue;
          // A value the analysis does not follow (`next(it)`, another
          // object's method) says nothing of what the attribute holds.
          infer::Cls C = Assign && Targets.size() == 1
                             ? scopedClass(Value, *S, F, I, Attribute)
                             : infer::Cls(VarClass::Other);
          // `self.x += v` changes a tensor in place whatever v is, and
          // makes a number a tensor when v is one: it says nothing of x
          // unless v is a tensor.
          if (!Assign && C != infer::Cls(VarClass::Tensor))
            C = infer::Cls();
          std::optional<infer::Cls> Own =
              Assign && Targets.size() == 1 ? OwnMethod(Value) : std::nullopt;
          if (Own)
            C = *Own;
          else if (C == infer::Cls(VarClass::Other) &&
                   infer::opaqueValue(field(X, "right"), F, I))
            C = infer::Cls();
          infer::Cls &Slot = Seen[F.text(field(T, "attribute"))];
          Slot = infer::join(Slot, C);
        }
      });
      // What the methods do with `self.x` says it is a tensor when only a
      // tensor could be used so (UseEvidence.h: `self.x.add_(1)`).
      ownCode(field(M, "body"), [&](TSNode X) {
        if (!is(X, "attribute"))
          return;
        TSNode O = unparen(field(X, "object"));
        if (!is(O, "attribute") || F.text(unparen(field(O, "object"))) != Self)
          return;
        llvm::StringRef Use = F.text(field(X, "attribute"));
        TSNode Call = ts_node_parent(X);
        bool Called = is(Call, "call");
        if (Called ? callProvesTensor(Call, Use, F)
                   : pyAttributeProvesTensor(Use))
          Evidence.insert(F.text(field(O, "attribute")));
      });
    }
    for (const auto &E : Evidence) {
      infer::Cls &Slot = Seen[E.getKey()];
      Slot = infer::join(Slot, infer::Cls(VarClass::Tensor));
    }
    Before = Seen;
  }
  llvm::StringMap<VarClass> Out;
  for (const auto &E : Seen)
    if (E.second &&
        (*E.second == VarClass::Stream || *E.second == VarClass::Event ||
         *E.second == VarClass::Tensor))
      Out[E.getKey()] = *E.second;
  return Out;
}

/// The yield statement of a @contextmanager generator and its statements
/// before and after it: the yield is directly in its body, or in the body
/// of a try directly in it (whose finally block then runs after it). Null:
/// another shape (no yield, several, or nested deeper).
std::vector<TSNode> withValues(TSNode With) {
  std::vector<TSNode> Values;
  for (TSNode C : children(With))
    if (is(C, "with_clause"))
      for (TSNode Item : children(C)) {
        TSNode Value = field(Item, "value");
        if (is(Value, "as_pattern") && !children(Value).empty())
          Value = children(Value)[0];
        Values.push_back(unparen(Value));
      }
  return Values;
}

TSNode splitAtYield(TSNode Def, std::vector<TSNode> &Before,
                    std::vector<TSNode> &After, const Imports &I) {
  // `with torch.cuda.stream(s): ... yield ...`: the guard is held across
  // the yield.
  auto StreamsOnly = [&](TSNode With) {
    std::vector<TSNode> Values = withValues(With);
    return !Values.empty() && llvm::all_of(Values, [&](TSNode V) {
      return is(V, "call") &&
             apiOf(I.qualify(field(V, "function"))) == PyApi::StreamContext;
    });
  };
  unsigned Yields = 0;
  ownCode(field(Def, "body"), [&](TSNode X) { Yields += is(X, "yield"); });
  if (Yields != 1)
    return TSNode{};
  auto IsYield = [](TSNode S) {
    return is(S, "expression_statement") && !children(S).empty() &&
           is(children(S)[0], "yield");
  };
  std::vector<TSNode> Body = children(field(Def, "body"));
  for (size_t K = 0; K < Body.size(); ++K) {
    if (IsYield(Body[K])) {
      Before.assign(Body.begin(), Body.begin() + K);
      After.assign(Body.begin() + K + 1, Body.end());
      return Body[K];
    }
    if (is(Body[K], "with_statement") && StreamsOnly(Body[K])) {
      for (TSNode S : children(field(Body[K], "body"))) {
        if (!IsYield(S))
          continue;
        Before.assign(Body.begin(), Body.begin() + K + 1);
        After.assign(Body.begin() + K, Body.end());
        return S;
      }
      continue;
    }
    if (!is(Body[K], "try_statement"))
      continue;
    std::vector<TSNode> Try = children(field(Body[K], "body"));
    for (size_t J = 0; J < Try.size(); ++J) {
      if (!IsYield(Try[J]))
        continue;
      Before.assign(Body.begin(), Body.begin() + K);
      Before.insert(Before.end(), Try.begin(), Try.begin() + J);
      After.assign(Try.begin() + J + 1, Try.end());
      for (TSNode C : children(Body[K]))
        if (is(C, "finally_clause"))
          for (TSNode B : children(C))
            if (is(B, "block")) {
              std::vector<TSNode> Fin = children(B);
              After.insert(After.end(), Fin.begin(), Fin.end());
            }
      After.insert(After.end(), Body.begin() + K + 1, Body.end());
      return Try[J];
    }
  }
  return TSNode{};
}

//===-- What the file defines, asked once per file ------------------------===//

HelperIndex::HelperIndex(const SourceFile &F, const Imports &I) : F(F), I(I) {
  for (TSNode C : children(F.root()))
    if (is(C, "class_definition")) {
      auto [It, New] = ModuleClasses.try_emplace(F.text(field(C, "name")), C);
      if (!New)
        It->second = TSNode{}; // defined twice: which one runs is not known
    }
  // `class D(B): def m(...)`: B's m may be D's on a D object.
  std::vector<TSNode> Work{F.root()};
  while (!Work.empty()) {
    TSNode N = Work.back();
    Work.pop_back();
    if (is(N, "class_definition"))
      Classes.push_back(N);
    if (is(N, "class_definition"))
      for (TSNode B : children(field(N, "superclasses")))
        for (TSNode M : children(field(N, "body"))) {
          if (is(M, "decorated_definition"))
            M = field(M, "definition");
          if (is(M, "function_definition"))
            Overrides.insert(F.text(B).str() + "." +
                             F.text(field(M, "name")).str());
        }
    for (TSNode C : children(N))
      Work.push_back(C);
  }
}

TSNode HelperIndex::moduleClass(llvm::StringRef Name) const {
  return ModuleClasses.lookup(Name);
}

TSNode HelperIndex::methodIn(TSNode Class, llvm::StringRef Name) const {
  // Nearest first; past a base that is not a class of the file, the method
  // may be that base's.
  for (TSNode C : lineage(Class)) {
    TSNode M = methodOf(C, Name, F);
    if (!ts_node_is_null(M))
      return M;
    for (TSNode B : children(field(C, "superclasses")))
      if (ts_node_is_null(baseClass(B)) && F.text(B) != "object")
        return TSNode{};
  }
  return TSNode{};
}

TSNode HelperIndex::staticMethodIn(TSNode Class, llvm::StringRef Name) const {
  for (TSNode C : lineage(Class)) {
    // A def of that name in the class, static or not, hides the bases'.
    for (TSNode M : children(field(C, "body"))) {
      TSNode Def = is(M, "decorated_definition") ? field(M, "definition") : M;
      if (is(Def, "function_definition") && F.text(field(Def, "name")) == Name)
        return staticMethod(Def, F) ? Def : TSNode{};
    }
    for (TSNode B : children(field(C, "superclasses")))
      if (ts_node_is_null(baseClass(B)) && F.text(B) != "object")
        return TSNode{};
  }
  return TSNode{};
}

bool HelperIndex::overridden(TSNode Class, llvm::StringRef Method) const {
  return Overrides.contains(F.text(field(Class, "name")).str() + "." +
                            Method.str());
}

bool HelperIndex::usesStreams(TSNode Def) {
  auto [It, New] = Streams.try_emplace(Def.id, false);
  if (New)
    It->second = scanForStreams(Def, F, I);
  return It->second;
}

bool HelperIndex::waitsForHost(TSNode Def) {
  auto [It, New] = HostWaits.try_emplace(Def.id, false);
  if (!New)
    return It->second;
  bool Found = false;
  ownCode(field(Def, "body"), [&](TSNode X) {
    TSNode Fn = field(X, "function");
    Found |= is(X, "call") && is(Fn, "attribute") &&
             isHostWaitEffect(tensorMethod(F.text(field(Fn, "attribute"))));
  });
  return HostWaits[Def.id] = Found;
}

llvm::StringMap<VarClass> HelperIndex::lineageAttributes(TSNode Class,
                                                         const Scope &Module) {
  llvm::StringMap<VarClass> Out;
  for (TSNode C : lineage(Class))
    for (const auto &E : attributeClasses(C, Module)) {
      auto [It, New] = Out.try_emplace(E.getKey(), E.second);
      if (!New && It->second != E.second)
        It->second = VarClass::Other;
    }
  // A stream the maker gives and the class uses as a side stream
  // (SideAttributes.cpp): its uses say it is a stream.
  for (const auto &E : sideAttributes(Class))
    Out.try_emplace(E.getKey(), VarClass::Stream);
  // A dict of tensors: "some value of it", a tensor (AttributeDicts.cpp).
  for (const auto &E : dictAttributes(Class, Module))
    Out.try_emplace(E.getKey().str() + "[]", VarClass::Tensor);
  return Out;
}

bool HelperIndex::calledOnSelf(TSNode Class, llvm::StringRef Name) {
  auto Found = SelfCalls.try_emplace(Class.id);
  llvm::StringSet<> &Called = Found.first->second;
  if (Found.second)
    for (TSNode C : family(Class))
      for (TSNode M : methodsWithSelf(C, F)) {
        std::string Self = paramNames(M, F)[0];
        everyNode(field(M, "body"), [&](TSNode N) {
          if (!is(N, "call"))
            return;
          TSNode Fn = unparen(field(N, "function"));
          if (is(Fn, "attribute") &&
              F.text(unparen(field(Fn, "object"))) == Self)
            Called.insert(F.text(field(Fn, "attribute")));
        });
      }
  return Called.contains(Name);
}

const llvm::StringMap<VarClass> &
HelperIndex::attributeClasses(TSNode Class, const Scope &Module) {
  auto [It, New] = Attributes.try_emplace(Class.id);
  if (New)
    It->second = scanAttributes(Class, Module, F, I);
  return It->second;
}

} // namespace streamsafe::py
