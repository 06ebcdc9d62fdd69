//===--- LoweringTest.cpp - lib/frontend lowering to the fact IR ----------===//
//
// Functions parsed against the real LibTorch headers, lowered to facts: each
// statement's facts with their operands resolved as far as syntax allows
// (views to their base, stream accessors to their stream, pointers to their
// tensor), and the syntactic questions answered once (recorded later in the
// loop, pointer kept for later).
//
//===----------------------------------------------------------------------===//

#include "LibTorchAST.h"
#include "lib/frontend/FunctionAnalysis.h"
#include "clang/AST/ASTContext.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"
#include <gtest/gtest.h>

using namespace clang;
using namespace streamsafe;

namespace {

const char *const Code = R"cpp(#include <ATen/ATen.h>
#include <ATen/cuda/CUDAEvent.h>
#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <cuda_runtime_api.h>
#include <functional>

void guard_and_op(const at::Tensor &x) {
  auto s = at::cuda::getStreamFromPool(); // @go-pool
  {
    at::cuda::CUDAStreamGuard g(s); // @go-guard
    at::Tensor y = x.mul(2); // @go-op
  } // @go-end
}

void view_in_place(at::Tensor x) {
  x.view({-1}).add_(1); // @vip
}

void events_in_loop(int n) {
  auto s1 = at::cuda::getStreamFromPool();
  auto s2 = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent ev; // @ev-decl
  for (int i = 0; i < n; ++i) {
    if (i > 0)
      ev.block(s2); // @ev-wait
    ev.record(s1); // @ev-record
  }
  ev.block(s1); // @ev-after
}

void copies(at::Tensor dst, const at::Tensor &src, cudaStream_t stream) {
  cudaMemcpyAsync(dst.data_ptr(), src.data_ptr(), 4, cudaMemcpyDeviceToDevice, stream); // @cp-async
  float *p = dst.data_ptr<float>(); // @cp-kept
  at::Tensor h = src.cpu(); // @cp-cpu
  h.copy_(src, /*non_blocking=*/true); // @cp-copy
} // @cp-end

void regions(at::Tensor out, int64_t i) {
  out.select(0, 1).zero_(); // @rg-select
  out[2].zero_(); // @rg-index
  out.narrow(0, 4, 2).zero_(); // @rg-narrow
  out.select(1, 0).zero_(); // @rg-column
  out.select(0, i).zero_(); // @rg-unknown
  auto parts = out.chunk(4); // @rg-chunk
  parts[3].zero_(); // @rg-piece
  out.split(2)[1].zero_(); // @rg-split
} // @rg-end

void placements(const at::Tensor &d) {
  at::Tensor a = at::empty({4}); // @pl-default
  at::Tensor b = at::empty({4}, d.options().device(at::kCPU).pinned_memory(true)); // @pl-pinned
  at::Tensor c = at::empty({4}, d.options()); // @pl-device
  at::Tensor e = at::empty_like(d); // @pl-like
  cudaStream_t s;
  cudaStreamCreate(&s); // @pl-create
}

void devices(const at::Tensor &d, int unknown) {
  at::Tensor a = at::empty({4}, d.options().device(at::Device(at::kCUDA, 1))); // @dv-alloc
  at::Tensor b = at::empty({4}, at::TensorOptions().device("cuda:2")); // @dv-string
  at::Tensor c = at::empty({4}, d.options().device(d.device())); // @dv-unknown
  at::cuda::CUDAGuard g(0); // @dv-guard
  c10::cuda::OptionalCUDAGuard h(at::Device(at::kCUDA, 3)); // @dv-optional
  at::cuda::CUDAGuard u(unknown); // @dv-unread
  auto s = at::cuda::getCurrentCUDAStream(1); // @dv-stream
}

void branches(bool flag, bool changed, int *ptr, int n) {
  if (flag)
    at::cuda::setCurrentCUDAStream(at::cuda::getStreamFromPool());
  if (!changed)
    changed = true;
  if (ptr == nullptr)
    return;
  for (int i = 0; i < n; ++i) {
    bool odd = i % 2;
    if (odd)
      at::cuda::setCurrentCUDAStream(at::cuda::getStreamFromPool());
  }
}

void capture(at::cuda::CUDAGraph &g, float *p, cudaStream_t s) {
  g.capture_begin(); // @cap-begin
  cudaMemcpy(p, p, 4, cudaMemcpyDeviceToDevice); // @cap-copy
  void *buf = nullptr;
  cudaMalloc(&buf, 4); // @cap-malloc
  g.capture_end(); // @cap-end
  g.replay(); // @cap-replay
  cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed); // @cap-raw
  cudaStreamQuery(s); // @cap-query
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  cudaStreamEndCapture(s, &graph); // @cap-raw-end
  cudaGraphInstantiate(&exec, graph, 0); // @cap-instantiate
  cudaGraphLaunch(exec, s); // @cap-launch
}

// Helpers run in place: parameters bound to the arguments, the body spawned
// in place, a lambda handed to a helper bound to its parameter.
static void scale_on(at::Tensor &t, c10::cuda::CUDAStream s) {
  at::cuda::CUDAStreamGuard g(s);
  t.mul_(2); // @hp-callee-op
}
static void run_on(c10::cuda::CUDAStream s, const std::function<void()> &fn) {
  at::cuda::CUDAStreamGuard g(s);
  fn(); // @hp-run
}
void helpers(at::Tensor x) {
  auto side = at::cuda::getStreamFromPool(); // @hp-pool
  scale_on(x, side); // @hp-scale
  run_on(side, [&] { x.add_(1); }); // @hp-lambda
  run_on(side, [&] { x.add_(1); }); // @hp-lambda2
}

// A hand-written event wrapper: record and wait on a parameter's stream.
namespace mylib {
class Event {
public:
  void Record(cudaStream_t s) { cudaEventRecord(ev_, s); }
  void WaitOn(c10::cuda::CUDAStream s) { cudaStreamWaitEvent(s.stream(), ev_, 0); }
  void Sync() { cudaEventSynchronize(ev_); }
  void Touch() {}
private:
  cudaEvent_t ev_;
};
} // namespace mylib
void wrapper(c10::cuda::CUDAStream s) {
  mylib::Event e; // @wr-decl
  e.Record(s.stream()); // @wr-record
  e.WaitOn(s); // @wr-wait
  e.Sync(); // @wr-sync
}
)cpp";

std::string str(const Function &IR, VarId V) {
  return V == NoVar ? "-" : IR.var(V).Name;
}

std::string str(const Function &IR, const StreamRef &R) {
  if (R.Device != StreamRef::NoDevice)
    return "current of device " + std::to_string(R.Device);
  switch (R.K) {
  case StreamRef::Current:
    return "current";
  case StreamRef::Queried:
    return "queried";
  case StreamRef::Unknown:
    return "unknown";
  case StreamRef::Default:
    return "legacy";
  case StreamRef::Var:
    return "var " + str(IR, VarId(R.Id));
  case StreamRef::Pool:
    return "pool";
  case StreamRef::Created:
    return "created";
  case StreamRef::Other:
    return "other";
  case StreamRef::Collective:
    return "collective " + str(IR, VarId(R.Id));
  case StreamRef::Side:
    return "side " + str(IR, VarId(R.Id));
  }
  return "?";
}

std::string str(CaptureMode M) {
  switch (M) {
  case CaptureMode::Global:
    return "global";
  case CaptureMode::ThreadLocal:
    return "thread-local";
  case CaptureMode::Relaxed:
    return "relaxed";
  case CaptureMode::Unknown:
    return "unknown-mode";
  }
  return "?";
}

std::string str(RestrictedCall C) {
  switch (C) {
  case RestrictedCall::Allocation:
    return "allocation";
  case RestrictedCall::EventQuery:
    return "event-query";
  case RestrictedCall::StreamQuery:
    return "stream-query";
  }
  return "?";
}

std::string str(const Function &IR, const TensorRef &R) {
  std::string S;
  switch (R.K) {
  case TensorRef::None:
    return "none";
  case TensorRef::Var:
    S = "var " + str(IR, VarId(R.Id));
    break;
  case TensorRef::Result:
    S = "result";
    break;
  }
  if (R.Named != NoVar && (R.K != TensorRef::Var || R.Named != R.Id))
    S += " named " + str(IR, R.Named);
  if (R.Part.K == Region::Rows)
    S +=
        " rows " + std::to_string(R.Part.Lo) + ".." + std::to_string(R.Part.Hi);
  else if (R.Part.K == Region::Piece)
    S +=
        " piece " + std::to_string(R.Part.Lo) + "/" + std::to_string(R.Part.Hi);
  return S;
}

/// One line per fact: "<marker line> <kind> <operands>".
std::string str(const Function &IR, const Fact &F) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << IR.Sites[F.Site].Line << " ";
  std::visit(
      [&](const auto &X) {
        using T = std::decay_t<decltype(X)>;
        if constexpr (std::is_same_v<T, fact::SetCurrent>)
          OS << "set-current " << str(IR, X.Stream);
        else if constexpr (std::is_same_v<T, fact::GuardEnter>)
          OS << "guard-enter " << str(IR, X.Guard) << " " << str(IR, X.Stream)
             << (X.KeepCurrent ? " keep" : "")
             << (X.Device != StreamRef::NoDevice
                     ? " device " + std::to_string(X.Device)
                     : "");
        else if constexpr (std::is_same_v<T, fact::GuardExit>)
          OS << "guard-exit " << str(IR, X.Guard);
        else if constexpr (std::is_same_v<T, fact::Access>)
          OS << (X.Write ? "write " : "read ") << str(IR, X.Tensor) << " on "
             << str(IR, X.Stream) << (X.Async ? " async" : "")
             << (X.Copy ? " copy" : "");
        else if constexpr (std::is_same_v<T, fact::Allocate>)
          OS << "allocate on " << str(IR, X.Stream) << (X.Host ? " host" : "")
             << (X.Pinned ? " pinned" : "") << (X.AllocateOnly ? " only" : "")
             << (X.Unowned ? " unowned" : "")
             << (X.Like ? " like " + str(IR, X.Like) : "");
        else if constexpr (std::is_same_v<T, fact::BindTensor>)
          OS << "bind " << str(IR, X.Var) << " := " << str(IR, X.Value);
        else if constexpr (std::is_same_v<T, fact::BindStream>)
          OS << "bind " << str(IR, X.Var) << " := " << str(IR, X.Value);
        else if constexpr (std::is_same_v<T, fact::BindEvent>)
          OS << "bind " << str(IR, X.Var) << (X.Fresh ? " := fresh event" : "")
             << (X.From != NoVar ? " := " + str(IR, X.From) : "");
        else if constexpr (std::is_same_v<T, fact::Unbind>)
          OS << "unbind " << str(IR, X.Var);
        else if constexpr (std::is_same_v<T, fact::EscapeTensor>)
          OS << "escape " << str(IR, X.Tensor);
        else if constexpr (std::is_same_v<T, fact::EscapeEvent>)
          OS << "escape event " << str(IR, X.Event);
        else if constexpr (std::is_same_v<T, fact::EventRecord>)
          OS << "record " << str(IR, X.Event) << " on " << str(IR, X.Stream);
        else if constexpr (std::is_same_v<T, fact::EventWait>)
          OS << "wait " << str(IR, X.Event) << " on " << str(IR, X.Stream)
             << (X.RecordedLaterInLoop ? " recorded-later-in-loop" : "");
        else if constexpr (std::is_same_v<T, fact::EventSync>)
          OS << "event-sync " << str(IR, X.Event);
        else if constexpr (std::is_same_v<T, fact::StreamSync>)
          OS << "stream-sync " << str(IR, X.Stream)
             << (X.IfHostInvolved ? " if-host" : "")
             << (X.AfterCopy ? " after-copy" : "");
        else if constexpr (std::is_same_v<T, fact::DeviceSync>)
          OS << "device-sync";
        else if constexpr (std::is_same_v<T, fact::RecordStream>)
          OS << "record-stream " << str(IR, X.Tensor) << " on "
             << str(IR, X.Stream);
        else if constexpr (std::is_same_v<T, fact::Spawn>)
          OS << "spawn body " << X.Body << (X.InPlace ? " in place" : "")
             << (X.Callee ? " callee" : "")
             << (X.Joinable != NoVar ? " joined by " + str(IR, X.Joinable)
                                     : std::string());
        else if constexpr (std::is_same_v<T, fact::CurrentQuery>)
          OS << "current-query";
        else if constexpr (std::is_same_v<T, fact::HostAccess>)
          OS << (X.Write ? "host-write " : "host-read ") << str(IR, X.Tensor);
        else if constexpr (std::is_same_v<T, fact::Forget>)
          OS << "forget " << str(IR, X.Var);
        else if constexpr (std::is_same_v<T, fact::CaptureBegin>)
          OS << "capture-begin " << str(IR, X.Stream) << " " << str(X.Mode)
             << (X.Graph != NoVar ? " into " + str(IR, X.Graph) : "");
        else if constexpr (std::is_same_v<T, fact::CaptureEnd>)
          OS << "capture-end " << str(IR, X.Stream)
             << (X.Graph != NoVar ? " into " + str(IR, X.Graph) : "");
        else if constexpr (std::is_same_v<T, fact::GraphReplay>)
          OS << "replay " << str(IR, X.Graph) << " on " << str(IR, X.Stream);
        else if constexpr (std::is_same_v<T, fact::GraphInstantiate>)
          OS << "instantiate " << str(IR, X.Exec) << " from "
             << str(IR, X.Graph);
        else if constexpr (std::is_same_v<T, fact::Restricted>)
          OS << "restricted " << str(X.Call) << " " << str(IR, X.Event) << " "
             << str(IR, X.Stream);
        else if constexpr (std::is_same_v<T, fact::HostSignal>)
          OS << "host-signal " << str(IR, X.Channel);
        else if constexpr (std::is_same_v<T, fact::HostWait>)
          OS << "host-wait " << str(IR, X.Channel);
        else if constexpr (std::is_same_v<T, fact::CaptureModeExchange>)
          OS << "capture-mode " << str(IR, X.Slot) << " " << str(X.Mode);
        else if constexpr (std::is_same_v<T, fact::HostByUse>)
          OS << "host-by-use " << str(IR, X.Tensor)
             << (X.Pinned ? " pinned" : "");
        else if constexpr (std::is_same_v<T, fact::Free>)
          OS << "free " << str(IR, X.Tensor);
        else
          static_assert(sizeof(T) == 0, "every fact kind is printed");
      },
      F.What);
  return S;
}

class Lowering : public test::ParsedSuite<Lowering> {
public:
  static const char *code() { return Code; }

protected:
  /// The facts of \p Name's own body (or of the body it runs numbered
  /// \p Body), in source order (by site).
  static std::vector<std::string> facts(llvm::StringRef Name, BodyId Body = 0) {
    ApiConfig Config;
    ApiTable Table(Config);
    auto IR = lowerFunction(*Functions[Name], AST->getASTContext(), Table);
    EXPECT_TRUE(IR);
    if (!IR || Body >= IR->Bodies.size())
      return {};
    std::vector<const Fact *> All;
    for (const Block &B : IR->Bodies[Body].Blocks)
      for (const Fact &F : B.Facts)
        All.push_back(&F);
    llvm::sort(All, [&](const Fact *L, const Fact *R) {
      return std::make_pair(IR->Sites[L->Site].Order, L->Site) <
             std::make_pair(IR->Sites[R->Site].Order, R->Site);
    });
    std::vector<std::string> Out;
    for (const Fact *F : All)
      Out.push_back(str(*IR, *F));
    return Out;
  }
  static std::string at(llvm::StringRef Marker) {
    return std::to_string(test::lineOf(Code, Marker)) + " ";
  }
};

TEST_F(Lowering, GuardsOpsAndLifetimes) {
  EXPECT_EQ(facts("guard_and_op"), std::vector<std::string>({
                                       at("go-pool") + "bind s := pool",
                                       at("go-guard") + "guard-enter g var s",
                                       at("go-op") + "bind y := result",
                                       at("go-op") + "read var x on current",
                                       at("go-op") + "allocate on current",
                                       at("go-end") + "unbind y",
                                       at("go-end") + "guard-exit g",
                                   }));
}

TEST_F(Lowering, ViewsAndInPlaceOpsResolveToTheirBase) {
  EXPECT_EQ(facts("view_in_place"),
            std::vector<std::string>({at("vip") + "write var x on current"}));
}

TEST_F(Lowering, ConstantViewsAlongTheFirstDimensionCarryTheirRows) {
  EXPECT_EQ(facts("regions"),
            std::vector<std::string>({
                at("rg-select") + "write var out rows 1..2 on current",
                at("rg-index") + "write var out rows 2..3 on current",
                at("rg-narrow") + "write var out rows 4..6 on current",
                at("rg-column") + "write var out on current",
                at("rg-unknown") + "write var out on current",
                at("rg-chunk") + "bind parts := var out",
                at("rg-piece") + "write var parts piece 3/4 on current",
                at("rg-split") + "write var out rows 2..4 on current",
                at("rg-end") + "unbind parts",
            }));
}

TEST_F(Lowering, OptionsSayWhereMemoryLives) {
  std::vector<std::string> F = facts("placements");
  for (const std::string &Expected : {
           at("pl-default") + "allocate on current host only",
           at("pl-pinned") + "allocate on current host pinned only",
           at("pl-device") + "allocate on current only",
           at("pl-like") + "allocate on current only like var d",
           at("pl-create") + "bind s := created",
       })
    EXPECT_TRUE(llvm::is_contained(F, Expected))
        << Expected << " not in " << ::testing::PrintToString(F);
}

TEST_F(Lowering, ConstantDevicesOfAllocationsGuardsAndStreams) {
  std::vector<std::string> F = facts("devices");
  for (const std::string &Expected : {
           at("dv-alloc") + "allocate on current of device 1 only",
           at("dv-string") + "allocate on current of device 2 only",
           at("dv-unknown") + "allocate on current only",
           at("dv-guard") + "guard-enter g current of device 0 device 0",
           at("dv-optional") + "guard-enter h current of device 3 device 3",
           at("dv-stream") + "bind s := current of device 1",
       })
    EXPECT_TRUE(llvm::is_contained(F, Expected))
        << Expected << " not in " << ::testing::PrintToString(F);
  // A device the analysis cannot read: no guard (the current device).
  EXPECT_FALSE(llvm::any_of(F, [&](const std::string &S) {
    return llvm::StringRef(S).starts_with(at("dv-unread"));
  })) << ::testing::PrintToString(F);
}

TEST_F(Lowering, EventsAndTheLoopQuestionAnsweredOnce) {
  std::vector<std::string> F = facts("events_in_loop");
  ASSERT_EQ(F.size(), 7u) << ::testing::PrintToString(F);
  EXPECT_EQ(F[2], at("ev-decl") + "bind ev := fresh event");
  EXPECT_EQ(F[3], at("ev-wait") + "wait ev on var s2 recorded-later-in-loop");
  EXPECT_EQ(F[4], at("ev-record") + "record ev on var s1");
  EXPECT_EQ(F[5], at("ev-after") + "wait ev on var s1");
}

TEST_F(Lowering, CopiesPointersAndHostReads) {
  // data_ptr() handed to a call is a host read (the solver ignores it on
  // device memory); kept in a variable it is not (the read comes later).
  // cpu() is a blocking copy to the host (the model's TensorToHost), as in
  // Python: it reads the source on the current stream, not from the host.
  EXPECT_EQ(facts("copies"),
            std::vector<std::string>({
                at("cp-async") + "host-read var dst",
                at("cp-async") + "write var dst on var stream async copy",
                at("cp-async") + "host-read var src",
                at("cp-async") + "read var src on var stream async copy",
                at("cp-cpu") + "bind h := result",
                at("cp-cpu") + "read var src on current copy",
                at("cp-cpu") + "stream-sync current",
                at("cp-cpu") + "allocate on current host",
                at("cp-copy") + "write var h on current async copy",
                at("cp-copy") + "read var src on current async copy",
                at("cp-end") + "unbind h",
            }));
}

TEST_F(Lowering, CaptureCallsFromTheApiTable) {
  // capture_begin() captures on the current stream, in the global mode
  // when no mode is written; the wait of a synchronous cudaMemcpy is marked.
  EXPECT_EQ(facts("capture"),
            std::vector<std::string>({
                at("cap-begin") + "capture-begin current global into g",
                at("cap-copy") + "stream-sync legacy after-copy",
                at("cap-copy") + "write var p on legacy copy",
                at("cap-copy") + "read var p on legacy copy",
                at("cap-malloc") + "restricted allocation - unknown",
                at("cap-end") + "capture-end unknown into g",
                at("cap-replay") + "replay g on current",
                at("cap-raw") + "capture-begin var s relaxed",
                at("cap-query") + "restricted stream-query - var s",
                at("cap-raw-end") + "capture-end var s into graph",
                at("cap-instantiate") + "instantiate exec from graph",
                at("cap-launch") + "replay exec on var s",
            }));
}

// Branches on variables no statement changes carry what each edge tells;
// a variable the function assigns tells nothing; a declaration that runs
// again forgets what the last iteration's branches told.
TEST_F(Lowering, BranchesOnNeverChangingVariables) {
  ApiConfig Config;
  ApiTable Table(Config);
  auto IR = lowerFunction(*Functions["branches"], AST->getASTContext(), Table);
  ASSERT_TRUE(IR);
  std::vector<std::string> Conditions;
  unsigned Forgets = 0;
  for (const Block &B : IR->Bodies[0].Blocks) {
    for (const EdgeCondition &C : B.SuccConds)
      for (const Assumption &A : C)
        Conditions.push_back(IR->var(A.Var).Name + (A.Value ? "=1" : "=0"));
    for (const Fact &F : B.Facts)
      if (const auto *X = F.as<fact::Forget>()) {
        ++Forgets;
        EXPECT_EQ(IR->var(X->Var).Name, "odd");
      }
  }
  llvm::sort(Conditions);
  EXPECT_EQ(Conditions, std::vector<std::string>({"flag=0", "flag=1", "odd=0",
                                                  "odd=1", "ptr=0", "ptr=1"}));
  EXPECT_EQ(Forgets, 1u);
}

// A same-file helper runs in place: its parameters are bound to the
// arguments around the spawn of its body. A helper handed a lambda is
// lowered once per lambda, and its call of the parameter runs the lambda in
// place; the lambda's body is lowered where it is written.
TEST_F(Lowering, HelpersRunInPlaceWithLambdasBoundToTheirParameters) {
  std::vector<std::string> Caller = facts("helpers");
  EXPECT_EQ(Caller, std::vector<std::string>({
                        at("hp-pool") + "bind side := pool",
                        at("hp-scale") + "bind t := var x",
                        at("hp-scale") + "bind s := var side",
                        at("hp-scale") + "spawn body 1 in place callee",
                        at("hp-scale") + "unbind t",
                        at("hp-scale") + "unbind s",
                        at("hp-lambda") + "bind s := var side",
                        at("hp-lambda") + "spawn body 3 in place callee",
                        at("hp-lambda") + "unbind s",
                        at("hp-lambda") + "escape var x",
                        at("hp-lambda2") + "bind s := var side",
                        at("hp-lambda2") + "spawn body 5 in place callee",
                        at("hp-lambda2") + "unbind s",
                        at("hp-lambda2") + "escape var x",
                    }));
  // The helper's body: its guard and its write of the parameter.
  std::vector<std::string> Scale = facts("helpers", 1);
  EXPECT_NE(llvm::find(Scale, at("hp-callee-op") + "write var t on current"),
            Scale.end());
  // run_on's body for the first lambda runs body 2 (the lambda) in place.
  std::vector<std::string> Run = facts("helpers", 3);
  EXPECT_NE(llvm::find(Run, at("hp-run") + "spawn body 2 in place"), Run.end());
  EXPECT_EQ(
      facts("helpers", 2),
      std::vector<std::string>({at("hp-lambda") + "write var x on current"}));
}

// An event wrapper's methods are the table's event effects, each with the
// position of its stream parameter; its objects are events.
TEST_F(Lowering, EventWrappersAreRecognisedFromTheirCode) {
  EXPECT_EQ(facts("wrapper"), std::vector<std::string>({
                                  at("wr-decl") + "bind e := fresh event",
                                  at("wr-record") + "record e on var s",
                                  at("wr-wait") + "wait e on var s",
                                  at("wr-sync") + "event-sync e",
                              }));
}

} // namespace
