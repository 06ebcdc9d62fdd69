//===--- HelperObjects.cpp - Objects of the file's classes, run in place -===//
//
// The object half of Helpers.cpp: `Cls(...)` of a class of this file makes
// an object whose __init__ runs in place and whose stream and event
// attributes are variables of that object; `with Cls(...):` runs __enter__
// at the entry and __exit__ at every exit, and a @contextlib.contextmanager
// generator its code before and after the yield.
//
//===----------------------------------------------------------------------===//

#include "lib/python/Api.h"
#include "lib/python/Builder.h"
#include "lib/python/HelperIndex.h"
#include "llvm/ADT/STLExtras.h"

namespace streamsafe::py {

bool Builder::enterObject(TSNode Call, TSNode Body) {
  TSNode Fn = field(Call, "function");
  if (!is(Fn, "identifier"))
    return false;
  const Scope *Owner = St->S->owner(F.text(Fn));
  if (Owner && Owner->K != Scope::Module)
    return false;
  TSNode Class = X->moduleClass(F.text(Fn));
  if (ts_node_is_null(Class) || !baseless(Class, F) || decorated(Class))
    return false;
  TSNode Init = methodOf(Class, "__init__", F);
  TSNode Enter = methodOf(Class, "__enter__", F);
  TSNode Exit = methodOf(Class, "__exit__", F);
  if (ts_node_is_null(Enter) || ts_node_is_null(Exit) ||
      !(X->usesStreams(Enter) || X->usesStreams(Exit) ||
        (!ts_node_is_null(Init) && X->usesStreams(Init))))
    return false;
  const Scope *Module = St->S->ModuleScope;
  std::vector<std::string> ExitParams = paramNames(Exit, F);
  llvm::StringMap<VarClass> NoClasses;
  for (size_t K = 1; K < ExitParams.size(); ++K)
    NoClasses[ExitParams[K]] = VarClass::Other;
  const Instance *O = newObject(Call, Class);
  if (!O)
    return false;
  std::optional<BodyId> ExitBody =
      helperBody(Exit, Module, O, NoClasses, llvm::StringMap<VarId>());
  Value Ignored;
  // __enter__, at the with; its call site names it in the notes.
  if (!runInPlace(Call, Args(), Enter, Module, O, true, Ignored, "__enter__"))
    return true; // over the bound: the body runs, __exit__ does not
  // `with Cls() as x`, where __enter__ returns self: x is the object.
  bool ReturnsSelf = true, Returns = false;
  std::vector<std::string> EnterParams = paramNames(Enter, F);
  ownCode(field(Enter, "body"), [&](TSNode X) {
    if (!is(X, "return_statement"))
      return;
    Returns = true;
    std::vector<TSNode> C = children(X);
    ReturnsSelf &= C.size() == 1 && !EnterParams.empty() &&
                   F.text(unparen(C[0])) == EnterParams[0];
  });
  if (Returns && ReturnsSelf && is(ts_node_parent(Call), "as_pattern")) {
    TSNode Alias = field(ts_node_parent(Call), "alias");
    if (!children(Alias).empty() && is(children(Alias)[0], "identifier"))
      nameObject(children(Alias)[0], O);
  }
  if (!ExitBody)
    return true;
  Frame W;
  W.K = Frame::Exit;
  W.Node = Body;
  W.ExitBody = *ExitBody;
  St->Frames.push_back(W);
  return true;
}

bool Builder::attributeValue(TSNode N, Value &Out) {
  // self.x in a method of the object, or x.attr of a variable naming it.
  TSNode Object = unparen(field(N, "object"));
  if (!is(Object, "identifier"))
    return false;
  const Instance *O = nullptr;
  if (St->Self && !St->S->Params.empty() &&
      F.text(Object) == F.text(St->S->Params[0]))
    O = St->Self;
  else
    O = objectNamed(Object);
  if (!O || O->Keyed)
    return false;
  auto It = O->Attrs.find(F.text(field(N, "attribute")));
  if (It == O->Attrs.end())
    return false;
  Out = Value();
  Out.Node = N;
  Out.Class = IR->var(It->second).Class;
  if (Out.Class == VarClass::Stream)
    Out.Stream = StreamRef::var(It->second);
  else if (Out.Class == VarClass::Tensor)
    Out.Tensor = TensorRef::var(It->second);
  else
    Out.Event = It->second;
  return true;
}

bool Builder::bindAttribute(TSNode Target, const Value &V) {
  Value Attr;
  if (!is(Target, "attribute") || !attributeValue(Target, Attr))
    return false;
  if (Attr.Class == VarClass::Stream) {
    emit(site(SiteKind::Other, Target),
         fact::BindStream{Attr.Stream.Id, V.Class == VarClass::Stream
                                              ? V.Stream
                                              : StreamRef::unknown()});
    return true;
  }
  if (Attr.Class == VarClass::Tensor) {
    // The object holds the tensor from now on (its variable is never let
    // go of: the object outlives what the analysis sees).
    emit(site(SiteKind::Other, Target),
         fact::BindTensor{Attr.Tensor.Id, V.Class == VarClass::Tensor
                                              ? V.Tensor
                                              : TensorRef()});
    // Stored by the analysed method in its own object, for the object's
    // other methods and users (KeptTensors.cpp).
    if (V.Class == VarClass::Tensor && V.Tensor && keptBySelf(Target)) {
      fact::EscapeTensor Kept{V.Tensor};
      Kept.KeptByObject = true;
      emit(site(SiteKind::Other, Target), Kept);
    }
    return true;
  }
  emit(site(SiteKind::EventDecl, Target),
       fact::BindEvent{Attr.Event, V.FreshEvent || V.RecordOn});
  if (V.RecordOn)
    emit(site(SiteKind::EventRecord, V.Node),
         fact::EventRecord{Attr.Event, V.RecordStream});
  return true;
}

bool Builder::keptBySelf(TSNode Target) {
  // Only the analysed method's own store (not a helper's run in place, nor
  // another object's attribute).
  if (!St->Self || St->S != Root || Root->K != Scope::Def ||
      Root->Params.empty())
    return false;
  TSNode Object = unparen(field(Target, "object"));
  TSNode Class = classOf(Root->Node);
  if (!is(Object, "identifier") || F.text(Object) != F.text(Root->Params[0]) ||
      ts_node_is_null(Class))
    return false;
  lower::KeptEvidence E;
  X->keptEvidence(Class, F.text(field(Target, "attribute")), E);
  if (!lower::keptForUsers(E))
    return false; // the class's evidence alone rules it out
  // A wait or synchronization before the store, in the method.
  ownCode(field(Root->Node, "body"), [&](TSNode N) {
    if (!is(N, "call") || ts_node_start_byte(N) >= ts_node_start_byte(Target))
      return;
    TSNode Fn = unparen(field(N, "function"));
    llvm::StringRef Method =
        is(Fn, "attribute") ? F.text(field(Fn, "attribute")) : "";
    E.WaitBeforeStore |= Method == "synchronize" || Method == "wait_stream" ||
                         Method == "wait_event" || Method == "wait";
  });
  // A store the next statements of its block replace (`self.x = t.cuda()`,
  // then `self.x = self.x.float()`).
  TSNode Statement = ts_node_parent(Target);
  while (!ts_node_is_null(Statement) && !is(Statement, "expression_statement"))
    Statement = ts_node_parent(Statement);
  for (TSNode Next = ts_node_next_named_sibling(Statement);
       !ts_node_is_null(Statement) && !ts_node_is_null(Next);
       Next = ts_node_next_named_sibling(Next)) {
    TSNode A = ts_node_named_child_count(Next) ? ts_node_named_child(Next, 0)
                                               : TSNode{};
    E.ReplacedAfter |= is(Next, "expression_statement") &&
                       is(A, "assignment") &&
                       F.text(unparen(field(A, "left"))) == F.text(Target);
  }
  return lower::keptForUsers(E);
}

bool Builder::enterGenerator(TSNode Call, TSNode Body) {
  TSNode Fn = field(Call, "function");
  if (!is(Fn, "identifier"))
    return false;
  TSNode Def = {};
  const Scope *Outer = nullptr;
  for (const Scope *S = St->S; S && ts_node_is_null(Def); S = S->Parent) {
    auto It = S->Defs.find(F.text(Fn));
    if (It != S->Defs.end()) {
      Def = It->second;
      Outer = S;
    } else if (S->Locals.count(F.text(Fn))) {
      return false;
    }
  }
  // Decorated with contextlib.contextmanager, and nothing else.
  if (ts_node_is_null(Def))
    return false;
  TSNode Decorated = ts_node_parent(Def);
  if (!is(Decorated, "decorated_definition") || !ts_node_is_null(classOf(Def)))
    return false;
  std::vector<TSNode> Decorators;
  for (TSNode C : children(Decorated))
    if (is(C, "decorator"))
      Decorators.push_back(C);
  if (Decorators.size() != 1 || children(Decorators[0]).empty() ||
      I.qualify(children(Decorators[0])[0]) != "contextlib.contextmanager")
    return false;
  std::vector<TSNode> Before, After;
  if (ts_node_is_null(splitAtYield(Def, Before, After, I)) ||
      Runs.helpers() + 2 > MaxInlinedCallees)
    return false;
  Value Ignored;
  if (!runInPlace(Call, argsOf(Call), Def, Outer, nullptr, false, Ignored, "",
                  /*Part=*/1))
    return false;
  // The code after the yield (lowered with the same classes).
  std::optional<BodyId> Exit = Runs.ExitPart;
  if (!Exit)
    return true; // over the bound: the code after the yield does not run
  Frame W;
  W.K = Frame::Exit;
  W.Node = Body;
  W.ExitBody = *Exit;
  W.ExitName = F.text(Fn).str();
  St->Frames.push_back(W);
  return true;
}

Builder::Construction Builder::construction(TSNode Class, const SourceFile &CF,
                                            const Imports &CI,
                                            HelperIndex &CX) {
  TSNode Meta = {};
  for (TSNode B : children(field(Class, "superclasses")))
    if (is(B, "keyword_argument") && CF.text(field(B, "name")) == "metaclass")
      Meta = unparen(field(B, "value"));
  if (ts_node_is_null(Meta))
    return Construction::New;
  std::string Qualified = CI.qualify(Meta);
  if (llvm::StringRef(Qualified).starts_with("abc."))
    return Construction::New; // ABCMeta: abstract methods, a new object
  // The metaclass, in the class's module or another of the project.
  TSNode MetaClass =
      is(Meta, "identifier") ? CX.moduleClass(CF.text(Meta)) : TSNode{};
  const SourceFile *MetaFile = &CF;
  if (ts_node_is_null(MetaClass) && Modules && !Qualified.empty()) {
    const ProjectModule *M = nullptr;
    MetaClass = Modules->moduleClass(CF, Qualified, M);
    MetaFile = M ? M->F.get() : nullptr;
  }
  if (ts_node_is_null(MetaClass) || !MetaFile)
    return Construction::Unknown;
  // A metaclass's __call__ decides which object a call gives: a
  // singleton's gives the first one again.
  for (TSNode C : children(field(MetaClass, "body")))
    if (is(C, "function_definition") &&
        MetaFile->text(field(C, "name")) == "__call__")
      return Construction::Shared;
  return Construction::New;
}

const Instance *Builder::newObject(TSNode Call, TSNode Class) {
  // A class of another module: what its module's index says of it.
  const ProjectModule *Home =
      Modules && !F.owns(Class) ? Modules->moduleOf(Class) : nullptr;
  if (!F.owns(Class) && !Home)
    return nullptr;
  const SourceFile &CF = Home ? *Home->F : F;
  // Its methods may be a base class's; a thread's are start() and join(),
  // which the analysis knows, and the run() it defines.
  bool Thread = threadSubclass(Class, CF, Home ? *Home->I : I);
  if ((!baseless(Class, CF) && !Thread) || decorated(Class))
    return nullptr;
  HelperIndex *CX = Home ? Home->X.get() : X;
  const Scope *Module = Home ? Home->S.get() : St->S->ModuleScope;
  Construction Made = construction(Class, CF, Home ? *Home->I : I, *CX);
  if (Made == Construction::Unknown)
    return nullptr;
  // Followed when one of its methods uses streams (a thread's run() is
  // work on another thread, which is about streams whatever it does).
  bool Streams = Thread;
  for (TSNode M : children(field(Class, "body")))
    Streams |= is(M, "function_definition") && CX->usesStreams(M);
  if (!Streams)
    return nullptr;
  Instance &O = Objs.make(Class);
  // Its attributes, unknown until its methods bind them; bound here so
  // that what each method binds stays for the next one.
  SiteId At = site(SiteKind::Other, Call);
  // Its attributes are named as this code names the object (`ctx =
  // Ctx()`: "ctx.copy_stream"), not as its class's methods do ("self.").
  std::string Holder = F.text(field(Class, "name")).str() + "()";
  TSNode Up = ts_node_parent(Call);
  while (is(Up, "parenthesized_expression"))
    Up = ts_node_parent(Up);
  if (is(Up, "assignment") && is(field(Up, "left"), "identifier"))
    Holder = F.text(field(Up, "left")).str();
  // A shared object's attributes are what its class's methods gave it
  // before: a fresh stream attribute is held by that object, and its
  // __init__ may not run now.
  const llvm::StringMap<TSNode> *Fresh =
      Made == Construction::Shared ? &CX->freshAttributes(Class) : nullptr;
  for (const auto &E : CX->attributeClasses(Class, *Module)) {
    Variable V;
    V.Name = Holder + "." + E.getKey().str();
    V.Class = E.second;
    bool Held =
        Fresh && E.second == VarClass::Stream && Fresh->count(E.getKey());
    if (Held) {
      V.Persistent = true;
      V.Proof = StreamProof::SharedAttribute;
      V.ProvenAt = At;
    }
    IR->Vars.push_back(std::move(V));
    VarId Var = IR->Vars.size() - 1;
    O.Attrs[E.getKey()] = Var;
    if (Held)
      continue;
    if (E.second == VarClass::Stream)
      emit(At, fact::BindStream{Var, StreamRef::unknown()});
    else if (E.second == VarClass::Tensor)
      emit(At, fact::BindTensor{Var, TensorRef()});
    else
      emit(At, fact::BindEvent{Var, false});
  }
  Value Ignored;
  Args A = argsOf(Call);
  TSNode Init = methodOf(Class, "__init__", CF);
  if (Made == Construction::Shared || ts_node_is_null(Init) ||
      !runInPlace(Call, A, Init, Module, &O, true, Ignored, "__init__"))
    unknownCall(A, true);
  return &O;
}

const Instance *Builder::objectNamed(TSNode Name) const {
  if (!is(Name, "identifier"))
    return nullptr;
  const Scope *Owner = St->S->owner(F.text(Name));
  if (!Owner)
    return nullptr;
  return Objs.named(Owner, F.text(Name).str());
}

void Builder::nameObject(TSNode Target, const Instance *Object) {
  if (!is(Target, "identifier"))
    return;
  const Scope *Owner = St->S->owner(F.text(Target));
  if (!Owner || Owner != St->S)
    return;
  // Bound once in its scope (this binding): a name bound again, a loop
  // variable, a parameter, names something else too.
  llvm::StringRef Name = F.text(Target);
  if (llvm::any_of(Owner->Params, [&](TSNode P) { return F.text(P) == Name; }))
    return;
  unsigned Bindings = 0;
  TSNode Body =
      Owner->K == Scope::Module ? Owner->Node : field(Owner->Node, "body");
  ownCode(Body, [&](TSNode N) {
    TSNode T = {};
    if (is(N, "assignment") || is(N, "augmented_assignment") ||
        is(N, "for_statement"))
      T = unparen(field(N, "left"));
    else if (is(N, "as_pattern") && !children(field(N, "alias")).empty())
      T = children(field(N, "alias"))[0];
    else if (is(N, "named_expression"))
      T = field(N, "name");
    else if (is(N, "global_statement") || is(N, "nonlocal_statement"))
      Bindings += 2;
    if (ts_node_is_null(T))
      return;
    if (!is(T, "identifier") || F.text(T) == Name)
      Bindings += !is(T, "identifier") ? 0 : 1;
    if (!is(T, "identifier")) {
      // a, b = ...: any of them
      std::vector<TSNode> Work{T};
      while (!Work.empty()) {
        TSNode Y = Work.back();
        Work.pop_back();
        if (is(Y, "identifier") && F.text(Y) == Name)
          ++Bindings;
        if (is(Y, "subscript") || is(Y, "attribute"))
          continue; // x[k] = v, x.a = v: stores into x, x stays bound
        for (TSNode C : children(Y))
          Work.push_back(C);
      }
    }
  });
  if (Bindings == 1)
    Objs.name(Owner, Name.str(), Object);
}

} // namespace streamsafe::py
