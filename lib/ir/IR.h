//===--- IR.h - The front-end-neutral stream fact IR -------------*- C++
//-*-===//
//
// What the solver runs on: a function as blocks of facts with successor
// edges. A front end (Clang's, in lib/frontend/) lowers each statement once
// to facts: what it does to the current stream, to tensors, to events, to
// host synchronisation. Operands are already resolved as far as syntax can
// resolve them (which variable, which call site, which stream API); what
// depends on the path (which storage a variable names, which stream is
// current) is left to the solver. docs/design.md describes every fact.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_IR_IR_H
#define STREAMSAFE_LIB_IR_IR_H

#include "lib/ir/Region.h"
#include "lib/ir/Sites.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace streamsafe {

/// How a stream capture restricts the capturing thread (CUDA's
/// cudaStreamCaptureMode): Global and ThreadLocal forbid potentially unsafe
/// calls (cudaMalloc, cudaEventQuery, ...) while capturing, Relaxed allows
/// them. Unknown: an argument the front end cannot evaluate.
enum class CaptureMode : uint8_t { Global, ThreadLocal, Relaxed, Unknown };

/// A call the CUDA runtime restricts while a stream is capturing, and that
/// has no other effect on streams.
enum class RestrictedCall : uint8_t {
  Allocation,  ///< cudaMalloc, cudaFree, cudaMallocHost, cudaFreeHost
  EventQuery,  ///< cudaEventQuery(e), ev.query()
  StreamQuery, ///< cudaStreamQuery(s), s.query()
};

/// A named thing of the function: a local, a parameter, a global or a
/// field. Numbered per function by the front end.
using VarId = unsigned;
constexpr VarId NoVar = ~0u;
/// An anonymous thing a front end needs a key for: an allocating call, a
/// getStreamFromPool() call, an integer literal used as a stream.
using ObjectId = unsigned;
/// A callable's body (a thread, an executor task, a lambda called in place).
using BodyId = unsigned;

enum class VarClass { Other, Tensor, Stream, Event, Guard };

/// What the front end proved about the streams a stream variable can hold,
/// from every assignment it sees (each method of the class, the whole
/// module) or from the function's own use of a parameter. docs/design.md,
/// "Streams in objects and parameters".
enum class StreamProof : uint8_t {
  None,          ///< any stream, the caller's current one too
  Member,        ///< a C++ member the class only ever gives fresh streams
  Attribute,     ///< a Python attribute (`self.x`) likewise
  Global,        ///< a global or static that only ever holds a fresh stream
  SideParameter, ///< a parameter the function itself uses as a side stream
  /// A Python attribute given only the constructor's parameters (or None)
  /// that its class uses as a side stream: held, like Attribute.
  SideAttribute,
  /// A fresh-stream attribute of an object made here whose class's
  /// metaclass may give the same object at every call (a singleton's):
  /// held by that object, like Attribute.
  SharedAttribute,
  /// A local the function binds once to what code it cannot read returns
  /// (`s = mgr.h2d_stream()`) and itself uses as a side stream: a stream of
  /// its own, bound by StreamRef::Side.
  SideLocal,
};

struct Variable {
  std::string Name;
  VarClass Class = VarClass::Other;
  /// A reference: never owns a storage of its own.
  bool Reference = false;
  /// A global, static or field: one storage for the whole function, never
  /// bound or unbound by it.
  bool Persistent = false;
  /// Made up by the front end (what a called function returns): never
  /// names a storage in messages.
  bool Synthetic = false;
  /// A tensor parameter its caller may let go of while the function runs
  /// (an autograd hook's gradient, lib/model/GradientHooks.h): made on the
  /// caller's current stream and owned here, unless the front end escapes
  /// it where the caller keeps it.
  bool HandedOver = false;
  /// The front end's declaration (Clang: a NamedDecl).
  const void *Decl = nullptr;
  /// A stream variable: what it is known to hold (a persistent one: for
  /// the whole function; a parameter: at entry).
  StreamProof Proof = StreamProof::None;
  /// Where that was decided, for a note (a StreamProven site of this
  /// function: the member's creation in the constructor, the guard that
  /// enters the parameter); NoSite: none.
  SiteId ProvenAt = NoSite;
  /// A held stream no code of its class or file makes another stream or
  /// the host wait for: its object's users cannot wait for its work.
  bool NeverJoined = false;
};

/// A tensor operand. Var: the storage the variable names on this path (or,
/// for a persistent variable, its own). Result: the storage an Allocate
/// fact with that object created, while it lives. Views and in-place ops
/// are resolved to their base by the front end.
struct TensorRef {
  enum Kind : uint8_t { None, Var, Result } K = None;
  unsigned Id = 0;
  /// The name as written at the use (a view's base, a field), if any.
  VarId Named = NoVar;
  /// The part of the storage a view with constant arguments covers.
  Region Part;
  static TensorRef var(VarId V) { return {Var, V, V, {}}; }
  static TensorRef result(ObjectId O) { return {Result, O, NoVar, {}}; }
  explicit operator bool() const { return K != None; }
};

/// A stream operand.
struct StreamRef {
  enum Kind : uint8_t {
    Current, ///< implicitly the current stream (an ATen op, record())
    Queried, ///< an expression that asks for the current stream
    Unknown, ///< nothing is known: never reported
    Default, ///< the legacy default stream
    Var,     ///< what the variable holds on this path (a persistent
             ///< variable: a stream of its own)
    Pool,    ///< the fresh pool stream of one call site (Id: the object)
    Created, ///< the stream one cudaStreamCreate* call made (Id: the object)
    Other,   ///< another stream with a key of its own (Id: the object)
    /// A process group's internal (NCCL) stream (Id and Named: the
    /// variable that stands for the group)
    Collective,
    /// What the local Id (StreamProof::SideLocal) was given by code the
    /// analysis cannot read: a stream that differs from the caller's
    /// current one, as the function's own use of it says
    Side
  } K = Current;
  unsigned Id = 0;
  /// For Other: the variable that names it in messages, if any.
  VarId Named = NoVar;
  /// For Current and Queried: the current stream of this device (a constant
  /// index); NoDevice: of the current device. For Pool: the device the
  /// stream belongs to, when a constant says so.
  int8_t Device = NoDevice;
  static constexpr int8_t NoDevice = -1;
  static StreamRef current() { return {}; }
  static StreamRef queried() { return {Queried, 0, NoVar}; }
  static StreamRef unknown() { return {Unknown, 0, NoVar}; }
  static StreamRef legacy() { return {Default, 0, NoVar}; }
  static StreamRef var(VarId V) { return {Var, V, NoVar}; }
  static StreamRef side(VarId V) { return {Side, V, V}; }
  /// The current stream of device \p D (queried, not implied by an op).
  static StreamRef currentOf(int8_t D) { return {Queried, 0, NoVar, D}; }
};

namespace fact {
/// Stream becomes the current stream (never restored by itself).
/// ForProcess: it is set for the rest of the program on purpose (Python: by
/// a constructor that keeps it in `self`, or a def that keeps it in a
/// global), so no scope has to set the previous one back.
struct SetCurrent {
  StreamRef Stream;
  bool ForProcess = false;
  /// Sets back a stream saved from the current stream (a section's
  /// `End()`): a restore, whatever stream that is.
  bool Restores = false;
};
/// Guard saves the current stream and sets Stream (KeepCurrent: only saves,
/// an empty optional guard).
/// A device guard (CUDAGuard(d)) makes Device current instead: the current
/// stream becomes that device's, and its exit makes the saved device
/// current again.
struct GuardEnter {
  VarId Guard = NoVar;
  StreamRef Stream;
  bool KeepCurrent = false;
  int8_t Device = StreamRef::NoDevice;
};
/// Guard restores what it saved.
struct GuardExit {
  VarId Guard = NoVar;
};
/// Tensor read or written on Stream.
struct Access {
  bool Write = false;
  TensorRef Tensor;
  StreamRef Stream;
  bool Async = false; ///< a copy that does not block the host
  bool Copy = false;  ///< a copy (a DMA on host memory), not a computation
  /// A read by code the analysis does not see, which writes instead what
  /// nothing has written since it was allocated without values: code does
  /// not read memory nobody wrote, so it is handed that part to fill
  /// (`exchange(out[:1], ...)` of a fresh `empty`).
  bool FillsIfBlank = false;
};
/// A use says where a tensor lives that the analysis has not seen made (a
/// parameter, a value of code it does not see): a non_blocking copy to a
/// device reads pinned host memory, since from the device itself it would
/// be no copy and from pageable memory not asynchronous. Tells nothing of a
/// tensor whose allocation the analysis followed.
struct HostByUse {
  TensorRef Tensor;
  bool Pinned = false;
};
/// Tensor's memory goes back to the caching allocator now, whatever still
/// names its storage (`t.untyped_storage().resize_(0)`, `t.data = other`):
/// the storage holds no memory after it.
struct Free {
  TensorRef Tensor;
};
/// A call allocates a tensor (and, unless AllocateOnly, writes it) on Stream.
struct Allocate {
  ObjectId Result = 0;
  StreamRef Stream;
  bool Unowned = false;      ///< memory the caching allocator does not own
  bool AllocateOnly = false; ///< empty*(): no values written
  bool Host = false;         ///< the result lives in host memory
  bool Pinned = false;       ///< ... which is pinned (asynchronous copies
                             ///< to and from it run after the call returns)
  bool Async = false;        ///< a non_blocking copy produced it
  /// The caller's or the object's (an element of an attribute's dict or
  /// list, made by code not seen): it outlives the call.
  bool Held = false;
  /// No device stated: the result lives where this tensor lives (empty_like,
  /// to(dtype)); on the host when it is on the host.
  TensorRef Like;
  /// The storage of this tensor gets the new block, for every name of it
  /// (`t.untyped_storage().resize_(n)` of a freed storage); Result unused.
  TensorRef Into;
};
/// Var := Value. A None value is a tensor the analysis does not follow.
struct BindTensor {
  VarId Var = NoVar;
  TensorRef Value;
};
struct BindStream {
  VarId Var = NoVar;
  StreamRef Value;
  /// The variable is None (Python): it names no stream object, and
  /// Value is what code that takes it as a stream gets (`with
  /// torch.cuda.stream(None)`: the current stream; else Unknown).
  bool None = false;
};
/// Fresh: a new event (constructed here); From: the event of that
/// variable, the same event (`h = send(x)` of a helper that returns its
/// work handle, `e2 = e1`); otherwise one from elsewhere, which may have
/// been recorded there and is not followed.
struct BindEvent {
  VarId Var = NoVar;
  bool Fresh = false;
  VarId From = NoVar;
};
/// Var dies (scope end) or is reset.
struct Unbind {
  VarId Var = NoVar;
};
/// Tensor may outlive the function (returned, stored, captured).
struct EscapeTensor {
  TensorRef Tensor;
  /// Handed back to the caller (the analysed function's own return): the
  /// caller uses it on its current stream from now on.
  bool Returned = false;
  /// Kept in a field of the object the method runs on, at the method's
  /// exit (the site: where the method stored it): the object's other
  /// methods and users use it on their current stream from now on.
  bool KeptByObject = false;
};
/// Event handed to code the analysis does not see (NoVar: a stream was, and
/// that code may record or wait on events of its own with it).
struct EscapeEvent {
  VarId Event = NoVar;
};
struct EventRecord {
  VarId Event = NoVar;
  StreamRef Stream;
};
/// Stream waits on Event. RecordedLaterInLoop: the enclosing loop records
/// the event after the wait (the wait sees the previous iteration's
/// record; the first iteration's path is guarded by a condition).
struct EventWait {
  VarId Event = NoVar;
  StreamRef Stream;
  bool RecordedLaterInLoop = false;
  /// cudaStreamWaitEvent with a flag (cudaEventWaitExternal, or flags the
  /// front end cannot read): a capturing stream may wait on an event
  /// recorded outside the capture.
  bool External = false;
};
/// The host waits on Event.
struct EventSync {
  VarId Event = NoVar;
};
/// The host waits on Stream. With IfHostInvolved, only when one of the two
/// tensors lives on the host (a blocking copy_).
struct StreamSync {
  StreamRef Stream;
  bool IfHostInvolved = false;
  TensorRef A, B;
  /// The wait a synchronous cudaMemcpy/cudaMemset makes after its copy (the
  /// legacy stream only; not a cudaStreamSynchronize).
  bool AfterCopy = false;
  /// A wait that may not happen: the blocking copy of a receiver the front
  /// end does not follow (x.cpu() of a tensor that may be on the host).
  /// It completes what a wait would (so no host read after it is reported)
  /// but is never reported as a wait itself (graph capture).
  bool MayNotHappen = false;
  /// Only when A is not known to live on the host: an op whose result's
  /// size its data decides (nonzero) waits to read it from the device only.
  bool UnlessHost = false;
};
/// The host waits on the whole device.
struct DeviceSync {};
/// The allocator is told Tensor is used on Stream.
struct RecordStream {
  TensorRef Tensor;
  StreamRef Stream;
};
/// Body runs on another thread (a new one, or an executor's), or right
/// here (InPlace).
struct Spawn {
  BodyId Body = 0;
  bool InPlace = false;
  /// In place, the body of a function the analysed one calls (not a lambda):
  /// findings in it are reached through this call.
  bool Callee = false;
  /// An executor's worker thread: runs on the executor's own stream (the
  /// stream keyed by Executor when ExecutorKnown, else an unknown one).
  bool HasExecutor = false;
  bool ExecutorKnown = false;
  ObjectId Executor = 0;
  VarId ExecutorName = NoVar;
  /// The host object a wait on which orders after the whole body (the
  /// std::thread, the task's future, the executor); NoVar: none is known.
  /// With one (or a HostSignal in the body), the events the body records
  /// are not this thread's until it waits (docs/api-model.md, threads).
  VarId Joinable = NoVar;
};
/// This thread lets a host waiter on Channel go (promise.set_value,
/// latch.count_down, cv.notify_one, Python Event.set, Queue.put).
struct HostSignal {
  VarId Channel = NoVar;
};
/// This thread waits on the host for Channel (join, future.get, latch.wait,
/// cv.wait; Python join, result, Event.wait, Queue.get). NoVar: for
/// something the analysis cannot name (an unseen call, a lock), taken to
/// order after every thread.
struct HostWait {
  VarId Channel = NoVar;
};
/// The current stream is asked for (getCurrentCUDAStream()).
struct CurrentQuery {
  /// The stream asked for is only made to wait there (`current_stream()
  /// .wait_stream(s)`, `ev.block(getCurrentCUDAStream())`): nothing relies
  /// on which stream it is.
  bool AsWaiter = false;
};
/// The host reads or writes Tensor's memory (item, data_ptr, memcpy).
struct HostAccess {
  bool Write = false;
  TensorRef Tensor;
};
/// Stream begins a capture into a CUDA graph (CUDAGraph::capture_begin on
/// the current stream, cudaStreamBeginCapture(s)). Work issued on it, and
/// on streams forked from it, is recorded into the graph, not run.
struct CaptureBegin {
  StreamRef Stream;
  CaptureMode Mode = CaptureMode::Global;
  /// The graph object it captures into (a CUDAGraph, a cudaGraph_t);
  /// NoVar: not known here.
  VarId Graph = NoVar;
};
/// The capture in progress ends (capture_end(), cudaStreamEndCapture(s)).
/// What it recorded belongs to Graph (NoVar: not known), to run at each
/// replay.
struct CaptureEnd {
  StreamRef Stream;
  VarId Graph = NoVar;
};
/// Graph's recorded work runs on Stream (CUDAGraph::replay() on the
/// current stream, cudaGraphLaunch(exec, s) on s): ordered after the work
/// issued on Stream before, and before the work issued on it after.
struct GraphReplay {
  VarId Graph = NoVar;
  StreamRef Stream;
};
/// Exec is instantiated from Graph (cudaGraphInstantiate(&exec, graph)):
/// it replays what Graph recorded.
struct GraphInstantiate {
  VarId Exec = NoVar;
  VarId Graph = NoVar;
};
/// A call the runtime restricts during capture (see RestrictedCall), on
/// Event or Stream when it names one.
struct Restricted {
  RestrictedCall Call = RestrictedCall::Allocation;
  VarId Event = NoVar;
  StreamRef Stream = StreamRef::unknown();
};
/// The calling thread's capture interaction mode becomes Mode
/// (cudaThreadExchangeStreamCaptureMode(&slot), the constructor of
/// c10::cuda::CUDAStreamCaptureModeGuard), and Slot keeps the mode it had.
/// Exchanging with a Slot that keeps a mode swaps that mode back (the
/// second exchange, the guard's destructor); Mode is Slot's own value when
/// it keeps none (Unknown: the front end cannot read it).
struct CaptureModeExchange {
  VarId Slot = NoVar;
  CaptureMode Mode = CaptureMode::Unknown;
};
/// Var, whose branch outcomes are tracked (see Assumption), is initialised
/// again (its declaration runs again in a loop): what branches told about
/// its previous value no longer holds. A loop counter's next iteration
/// (Python's LoopCounters.cpp) steps the tests of the counter instead:
struct Forget {
  enum class Step : uint8_t {
    None,
    /// Var stands for a test of the counter against the loop's bound that
    /// fails only in the last iteration (`i < n` of `range(n + 1)`): a
    /// path that found it failing has no next iteration; the others
    /// forget it.
    Last,
    /// Var is bound anew to a value whose truth is known (Value): a
    /// constant argument of a helper's parameter (`scaled(x, false)`). The
    /// helper's tests of it are decided; each call binds it anew.
    Known
  } How = Step::None;
  VarId Var = NoVar;
  bool Value = false;
};
} // namespace fact

/// One fact: where it happens and what it does.
struct Fact {
  using Op = std::variant<
      fact::SetCurrent, fact::GuardEnter, fact::GuardExit, fact::Access,
      fact::Allocate, fact::BindTensor, fact::BindStream, fact::BindEvent,
      fact::Unbind, fact::EscapeTensor, fact::EscapeEvent, fact::EventRecord,
      fact::EventWait, fact::EventSync, fact::StreamSync, fact::DeviceSync,
      fact::RecordStream, fact::Spawn, fact::CurrentQuery, fact::HostAccess,
      fact::Forget, fact::CaptureBegin, fact::CaptureEnd, fact::Restricted,
      fact::HostSignal, fact::HostWait, fact::GraphReplay,
      fact::GraphInstantiate, fact::CaptureModeExchange, fact::HostByUse,
      fact::Free>;
  SiteId Site = NoSite;
  Op What;
  template <typename T> const T *as() const { return std::get_if<T>(&What); }
};

using FactList = llvm::SmallVector<Fact, 2>;

/// What a branch edge tells about a variable that no statement of the
/// function changes (a by-value parameter, a local set once): it is truthy
/// (Value) or not. Var is NoVar for an edge that tells nothing.
struct Assumption {
  VarId Var = NoVar;
  bool Value = false;
  /// What the edge tests. Remembered: the branch outcome on Var, kept in
  /// the state so that a second test of it takes the same edge. The others
  /// are decided by what the state holds when the edge is taken, never
  /// remembered: the edge is not taken when the state says the test fails
  /// (Value true: the test holds on this edge).
  enum class Test : uint8_t {
    Remembered,
    /// Var, a stream variable, is None (Python's `s is None`, `not s`).
    StreamIsNone,
    /// Var, an event variable, is None.
    EventIsNone,
    /// Var and Other, stream variables, hold one stream (`a == b`, `a is
    /// b`).
    SameStream
  } On = Test::Remembered;
  VarId Other = NoVar;
  /// A tensor variable this edge finds None (`if x is None:`'s true edge):
  /// it holds no memory on the paths through the edge. Not part of what
  /// the assumption is.
  VarId NoneTensor = NoVar;
  /// The branch condition that tells it, and whether the edge is the one
  /// where the condition holds: what a finding on the path says of it.
  /// Not part of what the assumption is.
  SiteId At = NoSite;
  bool CondHolds = false;
  /// Var belongs to the body that tests it (a C++ helper's parameter or
  /// local): each run of the body binds it anew, so a caller does not
  /// split its paths on it. Not part of what the assumption is.
  bool Local = false;
  /// Var is a test of a loop counter that holds for one iteration (`i < n`
  /// of `range(n + 1)`, forgotten or ending the path at the next step,
  /// fact::Forget): it is remembered past the bound on remembered tests, as
  /// it cannot pile up. Not part of what the assumption is.
  bool PerIteration = false;
  bool operator==(const Assumption &O) const {
    return Var == O.Var && Value == O.Value && On == O.On && Other == O.Other;
  }
  bool operator<(const Assumption &O) const {
    return Var != O.Var ? Var < O.Var : Value < O.Value;
  }
};

/// What taking one edge tells (every assumption holds on it; none: it
/// tells nothing).
using EdgeCondition = llvm::SmallVector<Assumption, 1>;

struct Block {
  FactList Facts;
  llvm::SmallVector<unsigned, 2> Succs;
  /// Parallel to Succs: the condition under which each edge is taken.
  llvm::SmallVector<EdgeCondition, 2> SuccConds;
  llvm::SmallVector<unsigned, 2> Preds;
  /// For a block that leaves the function: where it leaves (a return, the
  /// end of the body).
  SiteId ExitSite = NoSite;
};

/// A control-flow graph of facts.
struct Body {
  std::vector<Block> Blocks;
  unsigned Entry = 0;
  unsigned Exit = 0;
};

/// A write a method of the object's class left in flight in one of its
/// fields when it returned: the state another method starts from
/// (docs/design.md, "Object fields across methods").
struct CarriedWrite {
  SiteId Site = NoSite; ///< the write, in the other method
  SiteId Exit = NoSite; ///< where that method returned with it in flight
  /// The stream it runs on: NoVar and !OnOther, the caller's current stream
  /// at entry; a field stream of this function (a persistent stream
  /// variable); OnOther, a stream of that method's own, which no name here
  /// reaches (a fresh stream, one per carried write).
  VarId Stream = NoVar;
  bool OnOther = false;
  bool Allocation = false;
  /// The caller's current stream waited for it before the method returned.
  bool VisibleToEntry = false;
  /// Only where its block was allocated (its pool): no work in flight.
  bool Complete = false;
  /// A read of the field in flight, not a write.
  bool Read = false;
};

/// A tensor field of the object a method runs on (`self.buf`), followed
/// as a persistent variable, and what the class's methods leave in it.
struct ObjectField {
  VarId Var = NoVar;
  /// Every value the class gives it is host memory (pinned, too).
  bool Host = false, Pinned = false;
  std::vector<CarriedWrite> Carried;
  /// Every value the class gives it is a view of this other field
  /// (`self.status = self.buf[a:b].view(torch.int32)`): it names that
  /// field's storage.
  VarId ViewOf = NoVar;
};

/// A function as the solver sees it.
struct Function {
  std::string Name;
  /// Bodies[0] is the function's own; the others are callables it runs.
  std::vector<Body> Bodies;
  std::vector<Variable> Vars;
  /// Parameters, in order: tensors are ready on the caller's current
  /// stream, streams are the caller's.
  std::vector<VarId> Params;
  /// For each parameter, where it is declared (a ParamReady site).
  std::vector<SiteId> ParamSites;
  SiteTable Sites;
  SiteId EntrySite = NoSite;
  /// The tensor fields of the object a method runs on: bound at entry to
  /// what the other methods leave in them; the solver reports what this
  /// one leaves (SolverResult::FieldsLeft).
  std::vector<ObjectField> Fields;
  /// The event fields of that object: a write one of them was recorded
  /// after is handed on with what orders it, and is not left in flight
  /// for the next method (its users wait on the event).
  std::vector<VarId> FieldEvents;
  /// Leaving a stream set is this function's job (a documented stream
  /// binder, a lambda, a guard class's own method).
  bool MayLeaveStreamSet = false;
  /// Every caller the project shows runs this function while a side stream
  /// is current (the front end's calling contexts): where one of them makes
  /// it current, and the calls that carry it here, this function's call
  /// first. The caller's current stream at entry is then not the default
  /// stream. NoSite: it may be any stream.
  SiteId EntrySideSetAt = NoSite;
  std::vector<SiteId> EntrySideCalls;
  /// The function only ever runs at the start of a new thread: its
  /// current stream at entry is that thread's, the default stream.
  bool EntryOnNewThread = false;
  unsigned ObjectCount = 0;

  ObjectId newObject() { return ObjectCount++; }
  const Variable &var(VarId V) const { return Vars[V]; }
};

} // namespace streamsafe

#endif // STREAMSAFE_LIB_IR_IR_H
