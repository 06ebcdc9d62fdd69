//===--- AttributeStreams.cpp - Streams kept in objects and globals -------===//
//
// Real PyTorch code keeps its side streams in objects: `self.comm_stream =
// torch.cuda.Stream()` in __init__, used in the other methods. A method is
// analysed on its own, so what `self.comm_stream` holds comes from the rest
// of the file: when every assignment of the attribute the file makes (in
// every method of the class, of its bases defined in the file and of the
// classes derived from it, and anywhere else through another object) is a
// fresh stream or None, the attribute is a stream of its own, distinct from
// the caller's current stream in every method (StreamProof::Attribute).
// Anything else (current_stream(), an ExternalStream, a parameter, an
// unknown call, an assignment the scan cannot read) leaves it unknown, as
// before: silent. A module global assigned once, at the module's top level,
// a fresh stream, declared global by no def and never set as the current
// stream, is the same for every def
// (StreamProof::Global). docs/python.md, "Streams kept in objects, globals
// and parameters".
//
//===----------------------------------------------------------------------===//

#include "lib/python/Api.h"
#include "lib/python/Builder.h"
#include "lib/python/Helpers.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace streamsafe::py {

namespace {

/// What one assignment gives an attribute.
enum class Given { Fresh, Nothing, Other };

/// `torch.cuda.Stream(...)` (a new stream from the pool), None, or a
/// conditional of those.
Given givenBy(TSNode Value, const Imports &I) {
  Value = unparen(Value);
  if (ts_node_is_null(Value))
    return Given::Other;
  if (is(Value, "none"))
    return Given::Nothing;
  if (is(Value, "call"))
    return apiOf(I.qualify(field(Value, "function"))) == PyApi::NewStream
               ? Given::Fresh
               : Given::Other;
  if (is(Value, "conditional_expression")) {
    std::vector<TSNode> C = children(Value);
    if (C.size() != 3)
      return Given::Other;
    Given A = givenBy(C[0], I), B = givenBy(C[2], I);
    if (A == Given::Other || B == Given::Other)
      return Given::Other;
    return A == Given::Fresh || B == Given::Fresh ? Given::Fresh
                                                  : Given::Nothing;
  }
  return Given::Other;
}

/// The def \p N's code belongs to (null: the module's).
TSNode enclosingDef(TSNode N) {
  for (TSNode P = ts_node_parent(N); !ts_node_is_null(P); P = ts_node_parent(P))
    if (is(P, "function_definition"))
      return P;
  return TSNode{};
}

bool staticOrClassMethod(TSNode Def, const SourceFile &F) {
  TSNode D = ts_node_parent(Def);
  if (!is(D, "decorated_definition"))
    return false;
  for (TSNode C : children(D))
    if (is(C, "decorator") && !children(C).empty()) {
      llvm::StringRef Name = F.text(children(C)[0]);
      if (Name == "staticmethod" || Name == "classmethod")
        return true;
    }
  return false;
}

} // namespace

bool isCurrentStreamCall(TSNode Expr, const Imports &I) {
  Expr = unparen(Expr);
  return is(Expr, "call") &&
         apiOf(I.qualify(field(Expr, "function"))) == PyApi::CurrentStream;
}

TSNode withoutNone(TSNode Value) {
  Value = unparen(Value);
  if (ts_node_is_null(Value) || is(Value, "none"))
    return TSNode{};
  if (is(Value, "conditional_expression")) {
    std::vector<TSNode> C = children(Value);
    if (C.size() == 3 && is(unparen(C[2]), "none"))
      return C[0];
    if (C.size() == 3 && is(unparen(C[0]), "none"))
      return C[2];
  }
  return Value;
}

TSNode HelperIndex::baseClass(TSNode Base) const {
  return is(Base, "identifier") ? moduleClass(F.text(Base)) : TSNode{};
}

std::vector<TSNode> HelperIndex::lineage(TSNode Class) const {
  std::vector<TSNode> Out{Class};
  for (size_t K = 0; K < Out.size(); ++K)
    for (TSNode B : children(field(Out[K], "superclasses"))) {
      TSNode Base = baseClass(B);
      if (!ts_node_is_null(Base) &&
          llvm::none_of(Out, [&](TSNode C) { return C.id == Base.id; }))
        Out.push_back(Base);
    }
  return Out;
}

std::vector<TSNode> HelperIndex::family(TSNode Class) const {
  std::vector<TSNode> Out = lineage(Class);
  auto Add = [&](TSNode C) {
    if (llvm::none_of(Out, [&](TSNode X) { return X.id == C.id; }))
      Out.push_back(C);
  };
  for (TSNode C : Classes) {
    std::vector<TSNode> Up = lineage(C);
    if (C.id == Class.id ||
        llvm::none_of(Up, [&](TSNode X) { return X.id == Class.id; }))
      continue;
    for (TSNode X : Up)
      Add(X); // a subclass, and the mixins its methods come from
  }
  return Out;
}

const llvm::StringMap<TSNode> &HelperIndex::freshAttributes(TSNode Class) {
  auto [It, New] = FreshAttributes.try_emplace(Class.id);
  if (!New)
    return It->second;
  std::vector<TSNode> Family = family(Class);
  auto InFamily = [&](TSNode C) {
    return llvm::any_of(Family, [&](TSNode X) { return X.id == C.id; });
  };
  // Per attribute name: not only fresh streams and None (Bad), and the
  // target of a fresh one (the one in Class's __init__ first, else the
  // first in the file).
  llvm::StringSet<> Bad;
  llvm::StringMap<TSNode> Creation;
  auto Rank = [&](TSNode Target) {
    TSNode Def = enclosingDef(Target);
    bool InInit = !ts_node_is_null(Def) && classOf(Def).id == Class.id &&
                  F.text(field(Def, "name")) == "__init__";
    return std::make_pair(!InInit, ts_node_start_byte(Target));
  };
  bool Opaque = false; // setattr with a name not written out
  auto Assigned = [&](llvm::StringRef Name, TSNode Target, TSNode Value) {
    Given G = ts_node_is_null(Value) ? Given::Other : givenBy(Value, I);
    if (G == Given::Other) {
      Bad.insert(Name);
      return;
    }
    if (G != Given::Fresh)
      return;
    auto [C, First] = Creation.try_emplace(Name, Target);
    if (!First && Rank(Target) < Rank(C->second))
      C->second = Target;
  };
  std::vector<TSNode> Work{F.root()};
  while (!Work.empty()) {
    TSNode N = Work.back();
    Work.pop_back();
    for (TSNode C : children(N))
      Work.push_back(C);
    if (is(N, "call") && F.text(field(N, "function")) == "setattr") {
      std::vector<TSNode> A = children(field(N, "arguments"));
      if (A.size() >= 2 && is(A[1], "string"))
        Bad.insert(F.text(A[1]).trim("'\""));
      else
        Opaque = true;
      continue;
    }
    // `torch.cuda.set_stream(self.x)`: x may be the current stream from
    // then on (set for the process, ProcessStreams.cpp).
    if (is(N, "call") &&
        apiOf(I.qualify(field(N, "function"))) == PyApi::SetStream) {
      std::vector<TSNode> A = children(field(N, "arguments"));
      if (!A.empty() && is(unparen(A[0]), "attribute"))
        Bad.insert(F.text(field(unparen(A[0]), "attribute")));
      continue;
    }
    bool Assign = is(N, "assignment");
    if (!Assign && !is(N, "augmented_assignment"))
      continue;
    TSNode Left = unparen(field(N, "left"));
    TSNode Right = field(N, "right");
    // `x = v` directly in a class body of the family: the class attribute
    // an object reads before (or instead of) its own.
    TSNode Body = ts_node_parent(ts_node_parent(N));
    if (is(Left, "identifier") && is(Body, "block") &&
        is(ts_node_parent(Body), "class_definition") &&
        InFamily(ts_node_parent(Body))) {
      // `x: T` alone declares it; in a decorated class (a dataclass) it is
      // a field that a generated __init__ sets from a parameter.
      if (!Assign || !ts_node_is_null(Right) || decorated(ts_node_parent(Body)))
        Assigned(F.text(Left), Left, Assign ? Right : TSNode{});
      continue;
    }
    if (Assign && ts_node_is_null(Right))
      continue; // `self.x: torch.cuda.Stream`: an annotation, no value
    bool Unpacked = !is(Left, "attribute");
    std::vector<TSNode> Targets{Left};
    if (Unpacked)
      Targets = children(Left);
    for (TSNode T : Targets) {
      T = unparen(T);
      if (!is(T, "attribute"))
        continue;
      llvm::StringRef Name = F.text(field(T, "attribute"));
      // `self.x = v` in a method of a class outside the family is another
      // class's attribute; any other object may be one of Class's.
      TSNode Def = enclosingDef(N);
      TSNode Of = ts_node_is_null(Def) ? TSNode{} : classOf(Def);
      std::vector<std::string> Params =
          ts_node_is_null(Of) ? std::vector<std::string>{} : paramNames(Def, F);
      TSNode Object = unparen(field(T, "object"));
      if (!Params.empty() && is(Object, "identifier") &&
          F.text(Object) == Params[0] && !InFamily(Of))
        continue;
      Assigned(Name, T,
               Assign && !Unpacked && !is(Right, "assignment") ? Right
                                                               : TSNode{});
    }
  }
  if (Opaque)
    return It->second;
  for (const auto &E : Creation)
    if (!Bad.contains(E.getKey()))
      It->second[E.getKey()] = E.second;
  return It->second;
}

bool HelperIndex::globalMayChange(llvm::StringRef Name) {
  if (!Globals) {
    Globals.emplace();
    everyNode(F.root(), [&](TSNode N) {
      if (is(N, "global_statement"))
        for (TSNode C : children(N))
          Globals->insert(F.text(C));
      // `torch.cuda.set_stream(S)`: S may be the current stream from then
      // on (the module's start-up sets it for the program).
      if (is(N, "call") &&
          apiOf(I.qualify(field(N, "function"))) == PyApi::SetStream) {
        std::vector<TSNode> A = children(field(N, "arguments"));
        if (!A.empty() && is(unparen(A[0]), "identifier"))
          Globals->insert(F.text(unparen(A[0])));
      }
    });
  }
  return Globals->contains(Name);
}

void Builder::followSelf(const Scope &S) {
  TSNode Class = classOf(S.Node);
  if (ts_node_is_null(Class) || S.Params.empty() ||
      staticOrClassMethod(S.Node, F))
    return;
  // The stream and event attributes the class and its bases in the file
  // assign (a name they disagree on is not followed).
  llvm::StringMap<std::optional<VarClass>> Attrs;
  for (TSNode C : X->lineage(Class))
    for (const auto &E : X->attributeClasses(C, *S.ModuleScope)) {
      auto &Slot = Attrs[E.getKey()];
      Slot = !Slot || *Slot == E.second ? E.second : VarClass::Other;
    }
  const llvm::StringMap<TSNode> &Fresh = X->freshAttributes(Class);
  Instances.emplace_back();
  Instance &O = Instances.back();
  O.Class = Class;
  for (const auto &E : Attrs) {
    if (*E.second != VarClass::Stream && *E.second != VarClass::Event)
      continue;
    Variable V;
    V.Name = "self." + E.getKey().str();
    V.Class = *E.second;
    // Only ever a fresh stream: one stream for the whole method, held
    // before it is called (never bound at the entry: the engine gives it
    // its own symbol). Any other stream attribute stays unbound: unknown.
    auto Creation = Fresh.find(E.getKey());
    if (V.Class == VarClass::Stream && Creation != Fresh.end()) {
      V.Persistent = true;
      V.Proof = StreamProof::Attribute;
      V.ProvenAt = siteAt(SiteKind::StreamProven, start(Creation->second),
                          ts_node_start_byte(Creation->second));
    }
    IR->Vars.push_back(std::move(V));
    VarId Var = IR->Vars.size() - 1;
    O.Attrs[E.getKey()] = Var;
    // An event attribute: one event, recorded elsewhere before the call as
    // far as this method knows; what the method records and waits is
    // followed.
    if (*E.second == VarClass::Event)
      emit(IR->EntrySite, fact::BindEvent{Var, false});
  }
  St->Self = &O;
}

void Builder::proveGlobal(llvm::StringRef Name, const Scope &Module,
                          Variable &V) {
  auto B = Module.Bindings.find(Name);
  if (V.Class != VarClass::Stream || B == Module.Bindings.end() ||
      Module.Elements.count(Name) || B->second.size() != 1 ||
      ts_node_is_null(B->second[0]) ||
      givenBy(B->second[0], I) != Given::Fresh || X->globalMayChange(Name))
    return;
  V.Proof = StreamProof::Global;
  V.ProvenAt = siteAt(SiteKind::StreamProven, start(B->second[0]),
                      ts_node_start_byte(B->second[0]));
}

} // namespace streamsafe::py
