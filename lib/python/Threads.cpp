//===--- Threads.cpp - A thread runs from its start() ---------------------===//
//
// `threading.Thread(target=f)` makes a thread; its body runs from
// `start()`, on the default stream (the current stream is thread-local).
// `Thread(...).start()` starts it at once; `t = Thread(...)` followed by
// `t.start()` in the same body starts it there (at each such call: they may
// be on different paths). A thread made and not started in its body (kept
// in an attribute, returned) is taken to start where it is made. join()
// changes nothing: as in C++, the body's work is already taken as done by
// the statement after its start.
//
// `ex.submit(f, ...)` and `ex.map(f, ...)` on a ThreadPoolExecutor of this
// body run f on a worker thread, as `c10::ThreadPool::run` does in C++
// (docs/api-model.md, threads): a thread that starts on the default stream
// (a worker starts on it; one that set a stream in an earlier task keeps
// it, which is not followed).
//
//===----------------------------------------------------------------------===//

#include "lib/python/Builder.h"

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
  if (!is(Call, "call"))
    return false;
  std::string Q = I.qualify(field(Call, "function"));
  return Q == "concurrent.futures.ThreadPoolExecutor" ||
         Q == "concurrent.futures.thread.ThreadPoolExecutor";
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

bool Builder::submitTask(TSNode Call) {
  TSNode Fn = field(Call, "function");
  if (!is(Fn, "attribute") || St->S->K == Scope::Lambda)
    return false;
  llvm::StringRef Method = F.text(field(Fn, "attribute"));
  TSNode Object = unparen(field(Fn, "object"));
  if ((Method != "submit" && Method != "map") || !is(Object, "identifier") ||
      St->S->owner(F.text(Object)) != St->S)
    return false;
  TSNode Body =
      St->S->K == Scope::Module ? St->S->Node : field(St->S->Node, "body");
  if (!executorVariable(Body, F.text(Object), F, I))
    return false;
  // As Thread(target=f, args=...): the task and what it is handed.
  Args A = argsOf(Call);
  if (A.Positional.empty())
    return false;
  Args Task;
  Task.Keywords.push_back({"target", A.Positional[0]});
  Task.Positional.assign(A.Positional.begin() + 1, A.Positional.end());
  Task.Keywords.insert(Task.Keywords.end(), A.Keywords.begin(),
                       A.Keywords.end());
  spawnThread(Call, Task);
  return true;
}

bool Builder::startThread(TSNode Call) {
  TSNode Fn = field(Call, "function");
  if (!is(Fn, "attribute") || F.text(field(Fn, "attribute")) != "start")
    return false;
  TSNode Object = unparen(field(Fn, "object"));
  if (!is(Object, "identifier"))
    return false;
  auto It = Unstarted.find({St->S, F.text(Object).str()});
  if (It == Unstarted.end())
    return false;
  fact::Spawn S;
  S.Body = It->second;
  emit(site(SiteKind::ThreadStart, Call), S);
  return true;
}

} // namespace streamsafe::py
