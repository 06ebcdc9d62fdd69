//===--- Threads.cpp - A thread runs from its start() ---------------------===//
//
// `threading.Thread(target=f, args=(...), kwargs={...})` makes a thread;
// its body runs from `start()`, on the default stream (the current stream
// is thread-local). f is a lambda, a def of this file or a method of an
// object followed here; its parameters are bound to what it is handed, as a
// helper's are (Helpers.cpp), when that is written out as a tuple and a
// dict.
// `Thread(...).start()` starts it at once; `t = Thread(...)` followed by
// `t.start()` in the same body starts it there (at each such call: they may
// be on different paths). A thread made and not started in its body (kept
// in an attribute, returned) is taken to start where it is made. Its work
// is taken as done by the statement after its start, but the events it
// records are the starter's only after `t.join()` (or `fut.result()`, or a
// wait on a signal it gives: HostOrder.cpp).
//
// `ex.submit(f, ...)` and `ex.map(f, ...)` on a ThreadPoolExecutor of this
// body, `asyncio.to_thread(f, ...)` and `loop.run_in_executor(ex, f, ...)`
// run f on a worker thread, as `c10::ThreadPool::run` does in C++
// (docs/api-model.md, threads): a thread that starts on the default stream
// (a worker starts on it; one that set a stream in an earlier task keeps
// it, which is not followed).
//
//===----------------------------------------------------------------------===//

#include "lib/model/ThreadTasks.h"
#include "lib/python/Api.h"
#include "lib/python/Builder.h"
#include "lib/python/HelperIndex.h"
#include "lib/python/Modules.h"
#include "lib/python/ThreadCalls.h"
#include "llvm/ADT/STLExtras.h"

namespace streamsafe::py {

// Whether \p Body's own code (not nested defs, lambdas or classes) calls
// `Var.start()`.
static bool callsStart(TSNode Body, llvm::StringRef Var, const SourceFile &F) {
  bool Found = false;
  ownCode(Body, [&](TSNode X) {
    if (!is(X, "call"))
      return;
    TSNode Fn = field(X, "function");
    Found |= is(Fn, "attribute") && F.text(field(Fn, "attribute")) == "start" &&
             is(unparen(field(Fn, "object")), "identifier") &&
             F.text(unparen(field(Fn, "object"))) == Var;
  });
  return Found;
}

TSNode Builder::threadStart(TSNode ThreadCall, std::string &Var) {
  TSNode P = ts_node_parent(ThreadCall);
  if (is(P, "attribute") && F.text(field(P, "attribute")) == "start") {
    TSNode Call = ts_node_parent(P);
    if (is(Call, "call") && field(Call, "function").id == P.id)
      return Call;
  }
  if (is(P, "assignment") && field(P, "right").id == ThreadCall.id &&
      is(field(P, "left"), "identifier")) {
    TSNode Body =
        St->S->K == Scope::Module ? St->S->Node : field(St->S->Node, "body");
    llvm::StringRef Name = F.text(field(P, "left"));
    if (St->S->K != Scope::Lambda && callsStart(Body, Name, F)) {
      Var = Name.str();
      return TSNode{};
    }
  }
  return ThreadCall;
}

static bool isExecutor(TSNode Call, const Imports &I) {
  return is(Call, "call") &&
         pythonExecutorClass(I.qualify(field(Call, "function")));
}

// Whether \p Var is bound in \p Body's own code only to new
// ThreadPoolExecutors (`ex = ThreadPoolExecutor(...)`, `with
// ThreadPoolExecutor(...) as ex:`).
static bool executorVariable(TSNode Body, llvm::StringRef Var,
                             const SourceFile &F, const Imports &I) {
  bool Bound = false, Other = false;
  ownCode(Body, [&](TSNode X) {
    TSNode Target = {}, Value = {};
    if (is(X, "assignment") || is(X, "augmented_assignment")) {
      Target = unparen(field(X, "left"));
      Value = is(X, "assignment") ? field(X, "right") : TSNode{};
    } else if (is(X, "as_pattern")) {
      Target = field(X, "alias");
      if (!children(Target).empty())
        Target = children(Target)[0];
      Value = children(X).empty() ? TSNode{} : children(X)[0];
    } else if (is(X, "for_statement")) {
      Target = unparen(field(X, "left"));
    }
    if (!ts_node_is_null(Target) && F.text(Target) == Var) {
      if (isExecutor(unparen(Value), I))
        Bound = true;
      else
        Other = true;
    }
  });
  return Bound && !Other;
}

bool HelperIndex::executorAttribute(TSNode Class, llvm::StringRef Name) {
  std::vector<TSNode> Family = family(Class);
  auto InFamily = [&](TSNode C) {
    return llvm::any_of(Family, [&](TSNode X) { return X.id == C.id; });
  };
  bool Made = false;
  for (const AttributeWrite &W : attributeWrites()) {
    if (W.K == AttributeWrite::SetattrOpaque)
      return false;
    if (W.Name != Name)
      continue;
    if (W.K == AttributeWrite::Setattr || W.K == AttributeWrite::SetStream)
      return false;
    // Another class's attribute of that name.
    if (!ts_node_is_null(W.Owner) && !InFamily(W.Owner))
      continue;
    TSNode V = unparen(W.Value);
    if (ts_node_is_null(V))
      return false;
    if (is(V, "none"))
      continue;
    if (!isExecutor(V, I))
      return false;
    Made = true;
  }
  return Made;
}

bool Builder::submitTask(TSNode Call) {
  if (St->S->K == Scope::Lambda)
    return false;
  TSNode Fn = field(Call, "function");
  llvm::StringRef Method;
  const ApiRow *Row = threadCallRow(Call, F, I, &Method);
  if (!Row || Row->Entry.TaskArgs == TaskArguments::Packed)
    return false; // threading.Thread: threadCall
  // A pool's method, on an executor of this body or one the object keeps
  // (`self.pool`, `cls._executor`, made in __init__ or on first use). An
  // event loop comes from asyncio's functions, which give no class the
  // analysis reads: its method is taken on any object.
  if (!Method.empty() &&
      !llvm::StringRef(Row->Python).starts_with("asyncio.")) {
    TSNode Object = unparen(field(Fn, "object"));
    llvm::StringRef Attr;
    TSNode Class = St->S->K == Scope::Def ? classOf(St->S->Node) : TSNode{};
    bool Kept = !ts_node_is_null(Class) && !St->S->Params.empty() &&
                selfAttribute(Object, F.text(St->S->Params[0]), F, Attr) &&
                X->executorAttribute(Class, Attr);
    if (!Kept) {
      if (!is(Object, "identifier") || St->S->owner(F.text(Object)) != St->S)
        return false;
      TSNode Body =
          St->S->K == Scope::Module ? St->S->Node : field(St->S->Node, "body");
      if (!executorVariable(Body, F.text(Object), F, I))
        return false;
    }
  }
  // Where the task is among the arguments, and whether what follows it is
  // its arguments (map's are iterables of them).
  Args A = argsOf(Call);
  size_t TaskAt = std::max<int8_t>(Row->Entry.Task, 0);
  bool Bind = Row->Entry.TaskArgs == TaskArguments::Following;
  if (A.Positional.size() <= TaskAt)
    return false;
  for (size_t K = 0; K < TaskAt; ++K)
    escape(expr(A.Positional[K]), A.Positional[K]);
  Args Given;
  Given.Positional.assign(A.Positional.begin() + TaskAt + 1,
                          A.Positional.end());
  Given.Keywords = A.Keywords;
  spawnThread(Call, A.Positional[TaskAt], Given, Bind);
  return true;
}

void Builder::threadCall(TSNode N, const Args &A) {
  // Thread(group=None, target=None, name=None, args=(), kwargs={}).
  TSNode Target = A.get(1, "target");
  TSNode Positional = unparen(A.get(3, "args"));
  TSNode Keywords = unparen(A.get(4, "kwargs"));
  Args Given;
  bool Bind = true;
  if (is(Positional, "tuple") || is(Positional, "list")) {
    Given.Positional = children(Positional);
  } else if (!ts_node_is_null(Positional)) {
    Given.Positional.push_back(Positional);
    Bind = false;
  }
  if (is(Keywords, "dictionary")) {
    for (TSNode P : children(Keywords)) {
      llvm::StringRef Key =
          is(P, "pair") ? plainString(field(P, "key"), F) : llvm::StringRef();
      if (Key.empty())
        Bind = false;
      Given.Keywords.push_back({Key, is(P, "pair") ? field(P, "value") : P});
    }
  } else if (!ts_node_is_null(Keywords)) {
    Given.Keywords.push_back({"", Keywords});
    Bind = false;
  }
  spawnThread(N, Target, Given, Bind);
}

void Builder::spawnThread(TSNode N, TSNode Target, const Args &Given,
                          bool Bind) {
  Target = unparen(Target);
  auto EscapeAll = [&] {
    for (TSNode P : Given.Positional)
      escape(expr(P), P);
    for (const auto &[K, P] : Given.Keywords)
      escape(expr(P), P);
  };
  // The body: a lambda, or a def or method of this file run for what it is
  // handed.
  std::optional<BodyId> Body;
  const Scope *Inner = nullptr;
  TSNode Def = {};
  llvm::SmallVector<VarId, 4> Unbind;
  if (is(Target, "lambda")) {
    Def = Target;
    Body = Threads.lambdaBody(Def.id, [&] {
      const Scope *Lambda =
          Runs.own(makeScope(Def, Scope::Lambda, St->S, F, I));
      IR->Bodies.emplace_back();
      BodyId Id = IR->Bodies.size() - 1;
      Runs.queue({Lambda, Id});
      return Id;
    });
    Inner = Runs.ownedScopeOf(Def.id);
    EscapeAll();
  } else if (std::optional<CalleeDef> C = calleeDef(Target)) {
    Def = C->Def;
    ArgumentMatch M = matchArguments(Def, Bind ? Given : Args(), C->Method);
    Body = helperBody(Def, C->Outer, C->Self, M.Classes, M.Events);
    if (!Body)
      return EscapeAll();
    Inner = Runs.helper(*Body).S;
    if (Bind)
      Unbind = bindArguments(M, Inner, site(SiteKind::Other, N),
                             /*Escapes=*/true);
    else
      EscapeAll();
  } else if (is(Target, "identifier") || is(Target, "attribute")) {
    // A callable the analysis does not read (a module, a torch function, a
    // library's): on the thread, it computes with what it is handed on the
    // thread's current stream, as code not seen does here (UnknownCode.cpp).
    Body = unreadTask(Given);
  } else {
    return EscapeAll();
  }
  // The tensors it names outlive this function with it.
  if (Inner)
    escapeCaptured(field(Def, "body"), *Inner);
  // The body runs where the thread starts: `.start()`, if this body calls
  // it, else where it is made. What it is handed is bound where it is made.
  std::string Var;
  TSNode StartAt = threadStart(N, Var);
  if (ts_node_is_null(StartAt)) {
    Threads.madeUnstarted(St->S, Var, *Body);
    return;
  }
  fact::Spawn S;
  S.Body = *Body;
  // `fut = ex.submit(f)`: fut.result() waits for it.
  if (TSNode P = ts_node_parent(N);
      StartAt.id == N.id && is(P, "assignment") &&
      field(P, "right").id == N.id &&
      apiOf(I.qualify(field(N, "function"))) != PyApi::Thread)
    S.Joinable = channelVar(field(P, "left"));
  SiteId At = site(SiteKind::ThreadStart, StartAt);
  emit(At, S);
  for (VarId V : Unbind)
    emit(At, fact::Unbind{V});
}

BodyId Builder::unreadTask(const Args &Given) {
  // What it is handed, as the spawner holds it now (map's iterables: their
  // elements); kept by the task.
  std::vector<std::pair<TensorRef, TSNode>> Handed;
  auto Hand = [&](TSNode P) {
    Value V = expr(P);
    if (V.Class == VarClass::Tensor && V.Tensor)
      Handed.push_back({V.Tensor, P});
    for (const TensorRef &T : elements(V))
      Handed.push_back({T, P});
    escape(V, P);
  };
  for (TSNode P : Given.Positional)
    Hand(P);
  for (const auto &[K, P] : Given.Keywords)
    Hand(P);
  // Its body, straight: entry, a read of each on the current stream
  // (filling what is blank), exit.
  Body B;
  B.Blocks.resize(3);
  B.Entry = 0;
  B.Exit = 2;
  for (unsigned K : {0u, 1u}) {
    B.Blocks[K].Succs.push_back(K + 1);
    B.Blocks[K + 1].Preds.push_back(K);
  }
  for (const auto &[T, P] : Handed) {
    fact::Access Read{false, T, StreamRef::current()};
    Read.FillsIfBlank = true;
    Fact X;
    X.Site = site(SiteKind::Access, P);
    X.What = Read;
    B.Blocks[1].Facts.push_back(std::move(X));
  }
  IR->Bodies.push_back(std::move(B));
  return IR->Bodies.size() - 1;
}

bool Builder::startThread(TSNode Call) {
  TSNode Fn = field(Call, "function");
  if (!is(Fn, "attribute") || F.text(field(Fn, "attribute")) != "start")
    return false;
  TSNode Object = unparen(field(Fn, "object"));
  std::optional<BodyId> Body;
  if (is(Object, "identifier"))
    Body = Threads.unstarted(St->S, F.text(Object).str());
  // `w.start()` of an object of a threading.Thread subclass followed here:
  // its run() runs on the new thread, with w as self (and what w holds
  // lives as long as the thread).
  if (const Instance *O = Body ? nullptr : objectNamed(Object)) {
    const ProjectModule *Home =
        Modules && !F.owns(O->Class) ? Modules->moduleOf(O->Class) : nullptr;
    const SourceFile &CF = Home ? *Home->F : F;
    if (threadSubclass(O->Class, CF, Home ? *Home->I : I)) {
      TSNode Run = methodOf(O->Class, "run", CF);
      const llvm::StringMap<VarClass> NoClasses;
      const llvm::StringMap<VarId> NoEvents;
      Body = helperBody(Run, Home ? Home->S.get() : St->S->ModuleScope, O,
                        NoClasses, NoEvents);
      if (Body)
        escapeCaptured(field(Run, "body"), *Runs.helper(*Body).S);
    }
  }
  if (!Body)
    return false;
  fact::Spawn S;
  S.Body = *Body;
  S.Joinable = channelVar(Object); // t.join() waits for it
  emit(site(SiteKind::ThreadStart, Call), S);
  return true;
}

// The name a thread's body is given by: `f`, `self.f`, `obj.f`.
static llvm::StringRef targetName(TSNode Target, const SourceFile &F) {
  Target = unparen(Target);
  if (is(Target, "identifier"))
    return F.text(Target);
  if (is(Target, "attribute"))
    return F.text(field(Target, "attribute"));
  return {};
}

bool HelperIndex::threadTarget(TSNode Def) {
  if (!ThreadTargets) {
    // By name: a def named like a target is taken as one (its stream set
    // is then not reported, which errs towards silence).
    ThreadTargets.emplace();
    everyNode(F.root(), [&](TSNode N) {
      if (!is(N, "call"))
        return;
      const ApiRow *Row = threadCallRow(N, F, I);
      TSNode Target = Row ? taskArgument(N, *Row, F) : TSNode{};
      if (llvm::StringRef Name = targetName(Target, F); !Name.empty()) {
        ThreadTargets->insert(Name);
        TargetNodes.insert(unparen(Target).id);
      }
    });
  }
  return ThreadTargets->contains(F.text(field(Def, "name")));
}

bool HelperIndex::onlyRunOnThreads(TSNode Def) {
  if (!threadTarget(Def))
    return false;
  TSNode Outer = ts_node_parent(Def);
  while (!ts_node_is_null(Outer) && !is(Outer, "function_definition") &&
         !is(Outer, "class_definition") && !is(Outer, "module"))
    Outer = ts_node_parent(Outer);
  if (ts_node_is_null(Outer) || !is(Outer, "function_definition"))
    return false;
  // Every other mention of the name in the enclosing def is a thread's
  // target (a call of it, or handing it on, may run it on any stream).
  llvm::StringRef Name = F.text(field(Def, "name"));
  TSNode Own = field(Def, "name");
  bool Other = false, Target = false;
  everyNode(field(Outer, "body"), [&](TSNode N) {
    if (!is(N, "identifier") || F.text(N) != Name || ts_node_eq(N, Own))
      return;
    if (TargetNodes.contains(N.id))
      Target = true;
    else
      Other = true;
  });
  return Target && !Other;
}

} // namespace streamsafe::py
