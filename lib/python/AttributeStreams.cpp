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
#include "lib/python/HelperIndex.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace streamsafe::py {

namespace {

using Given = AttributeGiven;

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

/// The object a `setattr` acts on, through `type(x)` and `x.__class__`.
TSNode setattrObject(TSNode Object, const SourceFile &F) {
  Object = unparen(Object);
  if (is(Object, "call") && F.text(field(Object, "function")) == "type" &&
      children(field(Object, "arguments")).size() == 1)
    Object = unparen(children(field(Object, "arguments"))[0]);
  if (is(Object, "attribute") &&
      F.text(field(Object, "attribute")) == "__class__")
    Object = unparen(field(Object, "object"));
  return Object;
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

const std::vector<HelperIndex::AttributeWrite> &HelperIndex::attributeWrites() {
  if (AttributeWrites)
    return *AttributeWrites;
  AttributeWrites.emplace();
  std::vector<AttributeWrite> &Out = *AttributeWrites;
  // What a def is (its class, its first parameter), once per def.
  struct DefInfo {
    TSNode Of;
    std::string Self;
  };
  llvm::DenseMap<const void *, DefInfo> Defs;
  auto InfoOf = [&](TSNode Def) -> const DefInfo & {
    auto [D, New] = Defs.try_emplace(Def.id);
    if (New && !ts_node_is_null(Def)) {
      D->second.Of = classOf(Def);
      if (!ts_node_is_null(D->second.Of)) {
        std::vector<std::string> Params = paramNames(Def, F);
        if (!Params.empty())
          D->second.Self = Params[0];
      }
    }
    return D->second;
  };
  auto Write = [&](AttributeWrite::Kind K, llvm::StringRef Name, TSNode Target,
                   TSNode Value, TSNode Def, TSNode Owner) {
    AttributeWrite W;
    W.K = K;
    W.Name = Name;
    W.Target = Target;
    W.Def = Def;
    W.Owner = Owner;
    W.Given = ts_node_is_null(Value) ? Given::Other : givenBy(Value, I);
    W.Value = Value;
    Out.push_back(W);
  };
  // Each node with its two nearest ancestors above its parent and its
  // innermost def, kept on the way down (ts_node_parent costs a descent
  // from the root).
  struct Visit {
    TSNode N, Parent, Grand, Great, Def;
  };
  std::vector<Visit> Work{{F.root(), TSNode{}, TSNode{}, TSNode{}, TSNode{}}};
  while (!Work.empty()) {
    Visit V = Work.back();
    Work.pop_back();
    TSNode N = V.N;
    TSNode InnerDef = is(N, "function_definition") ? N : V.Def;
    for (TSNode C : children(N))
      Work.push_back({C, N, V.Parent, V.Grand, InnerDef});
    if (is(N, "call") && F.text(field(N, "function")) == "setattr") {
      std::vector<TSNode> A = children(field(N, "arguments"));
      if (A.size() >= 2 && is(A[1], "string"))
        Write(AttributeWrite::Setattr, F.text(A[1]).trim("'\""), {}, {}, V.Def,
              {});
      else if (!A.empty()) {
        // A name not written out: on a method's own object, any attribute
        // of its class may now hold anything; outside a def, or on an
        // object the def reaches otherwise (`self.inner`), of any class.
        // A def's parameter or local (`setattr(module, key, buf)` of a
        // module a helper walks) names none of the file's classes.
        const DefInfo &D = InfoOf(V.Def);
        TSNode O = setattrObject(A[0], F);
        if (is(O, "identifier") && !D.Self.empty() && F.text(O) == D.Self)
          Write(AttributeWrite::SetattrOpaque, "", {}, {}, V.Def, D.Of);
        else if (ts_node_is_null(V.Def) || !is(O, "identifier"))
          Write(AttributeWrite::SetattrOpaque, "", {}, {}, V.Def, {});
      }
      continue;
    }
    // `torch.cuda.set_stream(self.x)`: x may be the current stream from
    // then on (set for the process, ProcessStreams.cpp).
    if (is(N, "call") &&
        apiOf(I.qualify(field(N, "function"))) == PyApi::SetStream) {
      std::vector<TSNode> A = children(field(N, "arguments"));
      if (!A.empty() && is(unparen(A[0]), "attribute"))
        Write(AttributeWrite::SetStream,
              F.text(field(unparen(A[0]), "attribute")), {}, {}, V.Def, {});
      continue;
    }
    bool Assign = is(N, "assignment");
    if (!Assign && !is(N, "augmented_assignment"))
      continue;
    TSNode Left = unparen(field(N, "left"));
    TSNode Right = field(N, "right");
    // `x = v` directly in a class body: the class attribute an object
    // reads before (or instead of) its own.
    TSNode Body = V.Grand, Owner = V.Great;
    if (is(Left, "identifier") && is(Body, "block") &&
        is(Owner, "class_definition")) {
      // `x: T` alone declares it; in a decorated class (a dataclass) it is
      // a field that a generated __init__ sets from a parameter.
      if (!Assign || !ts_node_is_null(Right) || decorated(Owner))
        Write(AttributeWrite::ClassBody, F.text(Left), Left,
              Assign ? Right : TSNode{}, V.Def, Owner);
      continue;
    }
    if (Assign && ts_node_is_null(Right))
      continue; // `self.x: torch.cuda.Stream`: an annotation, no value
    // `a, self.x = ...` unpacks; `self.x[k] = v` stores into what x holds
    // and assigns no attribute.
    bool Unpacked = is(Left, "pattern_list") || is(Left, "tuple_pattern") ||
                    is(Left, "list_pattern");
    std::vector<TSNode> Targets{Left};
    if (Unpacked)
      Targets = children(Left);
    for (TSNode T : Targets) {
      T = unparen(T);
      if (!is(T, "attribute"))
        continue;
      const DefInfo &D = InfoOf(V.Def);
      TSNode Object = unparen(field(T, "object"));
      bool OwnSelf = !D.Self.empty() && is(Object, "identifier") &&
                     F.text(Object) == D.Self;
      Write(AttributeWrite::Member, F.text(field(T, "attribute")), T,
            Assign && !Unpacked && !is(Right, "assignment") ? Right : TSNode{},
            V.Def, OwnSelf ? D.Of : TSNode{});
    }
  }
  return Out;
}

AttributeGiven HelperIndex::attributeGiven(TSNode Value) const {
  return givenBy(Value, I);
}

const llvm::StringMap<TSNode> &HelperIndex::freshAttributes(TSNode Class) {
  auto [It, New] = FreshAttributes.try_emplace(Class.id);
  if (!New)
    return It->second;
  std::vector<TSNode> Family = family(Class);
  auto InFamily = [&](TSNode C) {
    return llvm::any_of(Family, [&](TSNode X) { return X.id == C.id; });
  };
  // Per attribute name, its writes in the file's order, each with its
  // target (the rule: lib/lower/HeldStreams.h).
  llvm::StringMap<std::vector<std::pair<lower::HeldStreamWrite, TSNode>>>
      Writes;
  for (const AttributeWrite &W : attributeWrites()) {
    lower::HeldStreamWrite H;
    switch (W.K) {
    case AttributeWrite::SetattrOpaque:
      if (!ts_node_is_null(W.Owner) && !InFamily(W.Owner))
        continue;        // another class's own attributes
      return It->second; // any attribute may be set to anything
    case AttributeWrite::Setattr:
    case AttributeWrite::SetStream:
      Writes[W.Name].push_back({H, W.Target}); // may hold anything
      continue;
    case AttributeWrite::ClassBody:
      if (!InFamily(W.Owner))
        continue;
      break;
    case AttributeWrite::Member:
      // `self.x = v` in a method of a class outside the family is another
      // class's attribute; any other object may be one of Class's.
      if (!ts_node_is_null(W.Owner) && !InFamily(W.Owner))
        continue;
      break;
    }
    H.Given = W.Given;
    H.AtConstruction = !ts_node_is_null(W.Def) &&
                       classOf(W.Def).id == Class.id &&
                       F.text(field(W.Def, "name")) == "__init__";
    Writes[W.Name].push_back({H, W.Target});
  }
  for (auto &E : Writes) {
    auto &List = E.second;
    llvm::sort(List, [](const auto &A, const auto &B) {
      return ts_node_start_byte(A.second) < ts_node_start_byte(B.second);
    });
    std::vector<lower::HeldStreamWrite> Given;
    for (const auto &[H, Target] : List)
      Given.push_back(H);
    if (std::optional<unsigned> Note = lower::freshProof(Given))
      It->second[E.getKey()] = List[*Note].second;
  }
  return It->second;
}

bool HelperIndex::setOnlyAtConstruction(TSNode Class, llvm::StringRef Name) {
  // Asked at every branch on `self.attr`: once per class and attribute.
  auto [Memo, New] = SetAtConstruction.try_emplace({Class.id, Name.str()});
  if (!New)
    return Memo->second;
  return Memo->second = setOnlyAtConstructionUncached(Class, Name);
}

bool HelperIndex::setOnlyAtConstructionUncached(TSNode Class,
                                                llvm::StringRef Name) {
  std::vector<TSNode> Family = family(Class);
  auto InFamily = [&](TSNode C) {
    return llvm::any_of(Family, [&](TSNode F) { return ts_node_eq(F, C); });
  };
  for (const AttributeWrite &W : attributeWrites()) {
    if (W.K == AttributeWrite::SetattrOpaque)
      return false;
    if (W.Name != Name || W.K == AttributeWrite::ClassBody)
      continue;
    // `self.x = v` in a class outside the family is another class's.
    if (W.K == AttributeWrite::Member && !ts_node_is_null(W.Owner) &&
        !InFamily(W.Owner))
      continue;
    if (W.K != AttributeWrite::Member || ts_node_is_null(W.Def) ||
        !constructionMethod(Class, W.Def))
      return false;
  }
  return true;
}

bool HelperIndex::constructionMethod(TSNode Class, TSNode Def, unsigned Depth) {
  llvm::StringRef Name = F.text(field(Def, "name"));
  if (Name == "__init__")
    return true;
  if (!Name.starts_with("_") || Name.starts_with("__") || Depth >= 4)
    return false;
  bool Called = false, Elsewhere = false;
  for (TSNode C : family(Class))
    for (TSNode M : methodsWithSelf(C, F)) {
      std::string Self = paramNames(M, F)[0];
      everyNode(field(M, "body"), [&](TSNode N) {
        if (Elsewhere || !is(N, "call"))
          return;
        TSNode Fn = unparen(field(N, "function"));
        if (!is(Fn, "attribute") ||
            F.text(unparen(field(Fn, "object"))) != Self ||
            F.text(field(Fn, "attribute")) != Name)
          return;
        Called = true;
        // (A call in a def nested in M, a hook or callback, runs later.)
        TSNode Encloser = ts_node_parent(N);
        while (!ts_node_is_null(Encloser) &&
               !is(Encloser, "function_definition") && !is(Encloser, "lambda"))
          Encloser = ts_node_parent(Encloser);
        Elsewhere = ts_node_eq(M, Def) || !ts_node_eq(Encloser, M) ||
                    !constructionMethod(Class, M, Depth + 1);
      });
      // A reference that is not a call (a callback) may run it any time.
      everyNode(field(M, "body"), [&](TSNode N) {
        if (is(N, "attribute") && F.text(field(N, "attribute")) == Name &&
            !is(ts_node_parent(N), "call"))
          Elsewhere = true;
      });
    }
  return Called && !Elsewhere;
}

bool HelperIndex::globalMayChange(llvm::StringRef Name) {
  scanGlobals();
  return Globals->contains(Name) || SetStreams.contains(Name);
}

bool HelperIndex::passedToSetStream(llvm::StringRef Name) {
  scanGlobals();
  return SetStreams.contains(Name);
}

void HelperIndex::scanGlobals() {
  if (Globals)
    return;
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
        SetStreams.insert(F.text(unparen(A[0])));
    }
  });
}

void Builder::followSelf(const Scope &S) {
  TSNode Class = classOf(S.Node);
  if (ts_node_is_null(Class) || S.Params.empty() ||
      staticOrClassMethod(S.Node, F))
    return;
  // The stream and event attributes the class and its bases in the file
  // assign (a name they disagree on is not followed).
  llvm::StringMap<VarClass> Attrs = X->lineageAttributes(Class, *S.ModuleScope);
  const llvm::StringMap<TSNode> &Fresh = X->freshAttributes(Class);
  std::vector<std::pair<VarId, ChosenStream>> Chosen;
  std::vector<std::pair<VarId, SideStream>> MaybeNone;
  Instance &O = Objs.make(Class);
  for (const auto &E : Attrs) {
    if (E.second != VarClass::Stream && E.second != VarClass::Event &&
        E.second != VarClass::Tensor)
      continue;
    Variable V;
    V.Name = "self." + E.getKey().str();
    V.Class = E.second;
    // Only ever a fresh stream: one stream for the whole method, held
    // before it is called (never bound at the entry: the engine gives it
    // its own symbol). Any other stream attribute stays unbound: unknown.
    SideStream Optional;
    auto Creation = Fresh.find(E.getKey());
    std::optional<ChosenStream> Flagged =
        E.second == VarClass::Stream && Creation == Fresh.end()
            ? X->flagStream(Class, E.getKey())
            : std::nullopt;
    TSNode Made = Creation != Fresh.end() ? Creation->second
                  : Flagged               ? Flagged->Creation
                                          : TSNode{};
    if (V.Class == VarClass::Stream && !ts_node_is_null(Made)) {
      V.Persistent = true;
      V.Proof = StreamProof::Attribute;
      V.NeverJoined = X->neverJoined(E.getKey());
      V.ProvenAt =
          siteAt(SiteKind::StreamProven, start(Made), ts_node_start_byte(Made));
    } else if (V.Class == VarClass::Stream) {
      // Given by the object's maker, used by the class as a side stream.
      const llvm::StringMap<SideStream> &Side = X->sideAttributes(Class);
      if (auto It = Side.find(E.getKey()); It != Side.end()) {
        TSNode Entered = It->second.Entered;
        V.Persistent = true;
        V.Proof = StreamProof::SideAttribute;
        V.ProvenAt = siteAt(SiteKind::StreamProven, start(Entered),
                            ts_node_start_byte(Entered));
        Optional = It->second;
      }
    }
    // A tensor attribute: a storage of the object's own until the method
    // binds another to it; nothing is known of it at entry.
    if (V.Class == VarClass::Tensor)
      V.Persistent = true;
    IR->Vars.push_back(std::move(V));
    VarId Var = IR->Vars.size() - 1;
    O.Attrs[E.getKey()] = Var;
    if (!ts_node_is_null(Optional.NoneTest))
      MaybeNone.push_back({Var, Optional});
    if (V.Class == VarClass::Stream && Creation == Fresh.end() && Flagged)
      Chosen.push_back({Var, *Flagged});
    // An event attribute: one event, recorded elsewhere before the call as
    // far as this method knows; what the method records and waits is
    // followed.
    if (E.second == VarClass::Event) {
      emit(IR->EntrySite, fact::BindEvent{Var, false});
      IR->FieldEvents.push_back(Var);
    }
  }
  St->Self = &O;
  // A stream __init__ chose by a flag: the method starts on one path per
  // value of the flag.
  chooseFlagStreams(Chosen);
  // A side stream the maker may not give: on the path where the class's
  // test finds it None, entering it switches nothing (it is the current
  // stream there).
  for (const auto &[Var, Side] : MaybeNone) {
    VarId V = Var;
    TSNode Test = Side.NoneTest;
    auto IsNone = [&] {
      emit(site(SiteKind::Other, Test),
           fact::BindStream{V, StreamRef::current()});
    };
    auto Given = [] {};
    if (!whenTrue(Test))
      IsNone();
    else if (Side.NoneWhenTrue)
      branchOn(Test, IsNone, Given);
    else
      branchOn(Test, Given, IsNone);
  }
  followFields(S, Class, O, Attrs);
}

void Builder::proveGlobal(llvm::StringRef Name, const Scope &Module,
                          Variable &V) {
  auto B = Module.Bindings.find(Name);
  if (V.Class != VarClass::Stream || B == Module.Bindings.end() ||
      Module.Elements.count(Name))
    return;
  // Every write, at module level and in the defs that declare it global
  // (the module scope's bindings hold both: a stream made on first use,
  // `global S; if S is None: S = Stream()`), read into the rule of
  // lib/lower/HeldStreams.h; a global set as the current stream may hold
  // any stream.
  std::vector<lower::HeldStreamWrite> Writes;
  for (TSNode Value : B->second)
    Writes.push_back(
        {ts_node_is_null(Value) ? Given::Other : givenBy(Value, I), false});
  if (X->passedToSetStream(Name))
    Writes.push_back({Given::Other, false});
  std::optional<unsigned> Note = lower::freshProof(Writes);
  if (!Note)
    return;
  TSNode Creation = B->second[*Note];
  V.Proof = StreamProof::Global;
  V.ProvenAt = siteAt(SiteKind::StreamProven, start(Creation),
                      ts_node_start_byte(Creation));
}

} // namespace streamsafe::py
