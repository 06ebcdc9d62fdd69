//===--- Builder.h - A Python scope's fact IR -------------------*- C++ -*-===//
//
// The Python front end: lowers one scope (a def, or the module body) to the
// front-end-neutral fact IR (lib/ir/IR.h), the same facts the Clang front
// end makes for the same program. Statements and control flow are in
// BuildStatements.cpp, expressions and the torch API in
// BuildExpressions.cpp, BuildCalls.cpp, TensorCalls.cpp and UnknownCode.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_PYTHON_BUILDER_H
#define STREAMSAFE_LIB_PYTHON_BUILDER_H

#include "lib/ir/IR.h"
#include "lib/lower/LeavesStreamSet.h"
#include "lib/lower/UnknownCode.h"
#include "lib/model/Recipes.h"
#include "lib/python/BodyState.h"
#include "lib/python/BuildMemo.h"
#include "lib/python/CounterSyntax.h"
#include "lib/python/HelperCalls.h"
#include "lib/python/HelperIndex.h"
#include "lib/python/HelperRuns.h"
#include "lib/python/ListTable.h"
#include "lib/python/LoweredFunction.h"
#include "lib/python/Modules.h"
#include "lib/python/ObjectTable.h"
#include "lib/python/Scope.h"
#include "lib/python/ThreadTable.h"
#include "lib/python/Values.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <tuple>

namespace streamsafe::py {

class Builder {
public:
  /// \p X: what the file defines (shared by the file's scopes).
  /// \p SideStreamParameters: the option of that name (docs/python.md,
  /// "Streams kept in objects, globals and parameters").
  /// \p Modules: the project's other modules, whose defs run in place
  /// too (null: none are read).
  Builder(const SourceFile &F, const Imports &I, HelperIndex &X,
          bool SideStreamParameters = true, ModuleCache *Modules = nullptr)
      : F(F), I(I), X(&X), SideStreamParameters(SideStreamParameters),
        Modules(Modules) {}

  /// Lowers \p S (its Node is the module or a function_definition).
  LoweredFunction build(const Scope &S, std::string Name);
  /// A method lowered after this starts from what \p C says its class's
  /// methods leave in its object's tensor fields.
  void carry(const FieldCarries *C) { Carries = C; }

private:
  using Frame = py::Frame;
  using BodyState = py::BodyState;

  //===-- Counter loops and lists of streams (LoopCounters.cpp) -----------===//
  /// Starts lowering \p For as a counter loop when it is one (true).
  bool beginCounterLoop(TSNode For);
  /// The innermost counter steps (at \p Counter, the top of its body):
  /// its windows shift; a path that found `i < n` failing ends there.
  void stepCounter(TSNode Counter);
  /// An iteration ends: what its windows hold goes to the next one.
  void carryCounter(TSNode Counter);
  /// New element variables of a window of \p List.
  CounterLoop::Elements windowVariables(const std::string &List);
  /// Lowers \p Lower as copy \p Id of the loop bodies being lowered.
  void inCopy(unsigned Id, const std::function<void()> &Lower);
  /// Lowers the first iterations of the innermost counter loop one by one
  /// when its counter is tested against constants (LoopCounters.cpp).
  void peelCounterLoop(const std::function<void(unsigned)> &Iteration,
                       unsigned Exhausted, TSNode Counter);
  /// Lowers the loop's body after those: once, or once per parity.
  void counterIterations(const std::function<void(unsigned)> &Iteration,
                         unsigned Head, unsigned Exhausted, TSNode Counter);
  /// The counter loop ends: its windows' elements stay in their lists.
  void endCounterLoop(TSNode For);
  /// A test of a counter that the copy being lowered decides.
  std::optional<bool> counterConstant(TSNode Cond);
  /// \p Cond compares the counter of a loop being lowered (null: not).
  std::pair<Compare, const CounterLoop *> counterCompare(TSNode Cond) const;
  /// `(i + c) % 2` (`== k`, `!= k`) of a counter: the remembered test of
  /// its parity; `i < n` of `range(n + 1)`: that of the last iteration.
  std::optional<Assumption> parityTest(TSNode Cond);
  /// `xs[i + c]` of a counter loop's window: its element (or NoVar).
  VarId windowElement(TSNode Subscript);
  /// `xs[i + c] = v` of a counter loop's window: binds its element (false:
  /// \p Target is none). \p Right: the value's expression (or null).
  bool storeWindowElement(TSNode Target, const Value &V, TSNode Right);
  /// `streams = [a, b]`, bound once: a stream variable per element.
  bool bindStreamList(TSNode Target, TSNode Right);
  /// `streams[k]`, `streams[(i + c) % 2]` of such a list (or false).
  bool streamListElement(TSNode Subscript, Value &V);

  //===-- Bodies and control flow (BuildStatements.cpp) -------------------===//
  Body lowerBody(const Scope &S, bool OwnsLocals,
                 const PendingBody *Helper = nullptr);
  unsigned newBlock();
  void edge(unsigned From, unsigned To);
  void block(TSNode Block);
  void statement(TSNode N);
  void ifStatement(TSNode N);
  void loop(TSNode N, bool IsFor);
  /// Binds a for loop's target to what one iteration gives it.
  void bindLoopTarget(TSNode N);
  void tryStatement(TSNode N);
  void withStatement(TSNode N);
  /// `with torch.cuda.graph(g, stream=s):` enters a capture region.
  void enterGraph(TSNode Call, TSNode Body);
  /// `with ctx:` of a local only given stream contexts, `with (a if c else
  /// b):` of them: a guard on the stream of each path (StreamContexts.h).
  bool enterStreamContext(TSNode Entry, TSNode Body);
  /// `a if c else b` of streams, stream contexts or None, on a test the
  /// analysis can tell: a stream variable bound on each path to its arm's.
  StreamRef streamByTest(TSNode Conditional);
  void returnStatement(TSNode N);
  void raiseStatement(TSNode N);
  /// An exception raised at \p N goes to the innermost handler, or out.
  void propagate(TSNode N);
  void jump(TSNode N, bool IsBreak);
  /// Runs the frames above \p Depth as a jump leaves them (guards restore,
  /// finally blocks run).
  void leaveFrames(size_t Depth);
  /// A with block's frame: guard \p Guard restores at every exit of \p Body.
  Frame &pushGuardFrame(VarId Guard, TSNode Body);
  /// Leaves the body at \p At (locals die).
  void exitBody(TSNode At, Position P);
  /// A def's tensor locals hold nothing until assigned (Lifetimes.cpp).
  void declareLocals(const Scope &S);
  /// A nested def: enclosing defs' saved streams hold its entry stream.
  void bindClosureStreams(const Scope &S);
  void assignment(TSNode N);
  /// Binds \p Targets (`a = b = ...`) to the value of \p Right.
  void assignValue(const std::vector<TSNode> &Targets, TSNode Right);
  void augmentedAssignment(TSNode N);
  void bindName(TSNode Target, const Value &V);
  /// `t.data = v` of a tensor followed here: t's old memory is freed and
  /// a name t is bound to v's storage.
  bool swapStorage(TSNode Target, const Value &V);
  /// Whether storing into \p Target (`batch.x = t` of a parameter of the
  /// analysed def) hands the value to its caller.
  bool handsToCaller(TSNode Target) const;
  /// `a, b = x.sort()` of an op returning new tensors (returnsTensorTuple):
  /// each name a new tensor made on the current stream.
  bool newTensorTuple(TSNode Targets, const Value &V, TSNode Right);
  /// Binds the event variable \p Var to \p V (a new event, one recorded
  /// now, another variable's, or one not followed).
  void bindEvent(VarId Var, const Value &V, TSNode At);
  /// Whether the local \p Name is a tensor by its uses (Scope::ByUse).
  bool heldByUse(TSNode Name);
  /// What \p Name, bound to an element of \p Container not followed
  /// (unpacked, a loop's variable), holds: a tensor when its uses say so,
  /// the caller's when the container is a parameter, else one made here.
  Value elementByUse(TSNode Name, TSNode Container);
  /// `p[k]` where only a tensor may stand (`t.copy_(p[k])`): the caller's
  /// tensors in parameter p (callerElements), or no value.
  Value parameterElement(TSNode N);
  /// The tensors (`p[]`) in the analysed def's parameter \p Name when it is
  /// not followed and only ever rebound to parts of itself (else NoVar);
  /// holdsCallerElements asks the same, making no variable.
  VarId callerElements(TSNode Name);
  bool holdsCallerElements(TSNode Name);
  Value unknownResult(TSNode Call);
  /// A new tensor made at \p At on the current stream (where \p Like
  /// lives, when given); \p Unowned: the caching allocator's part in it is
  /// not known.
  Value newTensor(TSNode At, bool Unowned, TensorRef Like = TensorRef(),
                  bool Held = false);
  void deleteStatement(TSNode N);

  //===-- Branches on values that never change (BranchConditions.cpp) -----===//
  /// What the true edge of a branch on \p Cond tells: `flag`, `not flag`,
  /// `x is None`, `x is not None` of a parameter the def never rebinds, a
  /// local bound once outside loops, or `self.attr` set only by __init__.
  /// Nothing when \p Cond tests anything else.
  std::optional<Assumption> whenTrue(TSNode Cond);
  /// The variable of the test \p Kind of \p Of (a name the def never
  /// changes, `self.attr` set only at construction); NoVar: not one.
  VarId testVar(TSNode Of, const std::string &Kind);
  /// For `x == c` (or `x != c`): that x equals each other value the
  /// scope's code compares it with fails, on the edge where x equals c.
  EdgeCondition otherValuesFail(TSNode Cond);
  /// The condition of an `if` outside loops that is no name (`any(...)`,
  /// `a is b`) and whose arms order streams differently (record_stream on
  /// one, an event on the other): evaluated once, it keeps the two paths
  /// apart as a value bound once would.
  std::optional<Assumption> orderingChoice(TSNode Cond);
  /// Marks the two edges just added from \p Branch (true, then false) with
  /// what a branch on \p Cond tells; a condition whose value is known on a
  /// CUDA machine keeps only the edge it takes.
  void markBranch(unsigned Branch, TSNode Cond);
  /// What a test of \p Cond on the true edge is that the state decides
  /// (Assumption::Test): a stream or event name against None or its truth,
  /// two stream names compared. The false edge tests the opposite.
  std::optional<Assumption> stateTest(TSNode Cond);
  /// `isinstance(x, tuple)` (builtins only) of a tensor name x: {x, true},
  /// x is no tensor where the test holds; `isinstance(x, torch.Tensor)`:
  /// {x, false}, where it fails. {NoVar, _}: another test.
  std::pair<VarId, bool> notTensorEdge(TSNode Cond);
  /// Whether some test in \p Cond (through `and`, `or`, `not`) tells the
  /// analysis anything: a never-changing value, a constant, a state test.
  bool testsAnything(TSNode Cond);
  /// Evaluates \p Cond from the current block, `and`, `or` and `not` as
  /// Python does (the right side only when the left does not decide), and
  /// gives the blocks where it holds and where it fails.
  std::pair<unsigned, unsigned> branchBlocks(TSNode Cond);
  /// The value of \p Cond when it is known on a CUDA machine
  /// (`get_accelerator().resolves_data_dependency()`: false).
  std::optional<bool> constantCondition(TSNode Cond);
  /// Lowers `Then` and `Else` on the two edges of a branch on \p Cond.
  /// At a method's entry: each stream attribute __init__ chose by a flag
  /// is its fresh stream on the flag's one edge and unknown on the other
  /// (FlagStreams.cpp).
  void
  chooseFlagStreams(const std::vector<std::pair<VarId, ChosenStream>> &Chosen);
  void branchOn(TSNode Cond, const std::function<void()> &Then,
                const std::function<void()> &Else);
  /// Whether the name \p Id holds one value for the whole analysed def.
  bool stableName(TSNode Id);

  //===-- Expressions (BuildExpressions.cpp) ------------------------------===//
  Value expr(TSNode N);
  Value name(TSNode N);
  Value binary(TSNode N, const std::vector<TSNode> &Operands);
  /// \p Returned: the analysed def hands them back to its caller.
  void escape(const Value &V, TSNode At, bool Returned = false);
  void readTensor(const Value &V, TSNode At);
  /// Tensor variables of enclosing scopes a nested def or lambda names
  /// (\p Events: its event variables too, which it may record).
  void escapeCaptured(TSNode Body, const Scope &Inner, bool Events = false);
  /// \p Arg, handed to code the analysis does not see, names a def of this
  /// or an enclosing scope: it may run there, later.
  void escapeCallable(TSNode Arg);

  //===-- Regions (Regions.cpp) -------------------------------------------===//
  std::optional<int64_t> constantInt(TSNode N);
  /// What \p Name, used at \p At, covers: one binding's region, or (bound
  /// in several places) what those that may reach \p At agree on.
  Region nameRegion(llvm::StringRef Name, TSNode At);
  Region reachingRegion(const Scope &Owner, llvm::StringRef Name, TSNode At);
  Region exprRegion(TSNode N);
  Region viewRegion(TSNode Call, llvm::StringRef Method);
  Region subscriptRegion(TSNode Subscript);
  std::optional<SliceBound> boundOf(TSNode N);
  /// The symbol of a name of the analysed def holding one value (else 0).
  uint32_t regionSymbol(TSNode Name);
  /// Element \p Index of a container (chunk(), a literal, a list name).
  Region elementRegion(TSNode Container, int64_t Index);

  //===-- Lists and tuples of tensors (Containers.cpp) --------------------===//
  /// The list of tensors \p Name of the body's own scope (or the analysed
  /// def's, from a closure run in place: listOwner), or null.
  ListSlots *listSlots(llvm::StringRef Name);
  const Scope *listOwner(llvm::StringRef Name);
  ListSlots *makeListSlots(const Scope *Owner, llvm::StringRef Name,
                           const std::string &Key);
  /// True when \p Name's elements may change position (pop, insert, del,
  /// item assignment, extend): xs[k] is then not followed.
  bool listReshaped(llvm::StringRef Name);
  Value listValue(TSNode N, ListSlots &L);
  Value containerLiteral(TSNode N);
  Value comprehension(TSNode N);
  Value pieceList(TSNode N, const Value &Self);
  Value listElement(TSNode Subscript, const Value &List);
  void bindList(TSNode Target, ListSlots &L, const Value &V);
  Value listMethod(TSNode N, const Value &Self, llvm::StringRef Method,
                   TSNode Object);
  void deleteFromList(TSNode Target);
  void unbindLists(SiteId At);
  /// Every element of a list value, in order.
  static llvm::SmallVector<TensorRef, 4> elements(const Value &V);
  /// `for x in xs` over known elements: the body once per element.
  bool unrolledLoop(TSNode N, const Value &Iterable);
  void unrollLoop(TSNode N, size_t Count,
                  llvm::function_ref<void(size_t)> Bind);
  /// Lists of tuples (TupleLists.cpp): a list of tensors per item.
  std::vector<ListSlots *> tupleColumns(llvm::StringRef Name);
  Value tupleListValue(TSNode N, llvm::ArrayRef<ListSlots *> Columns);
  void bindTupleList(TSNode Target, llvm::ArrayRef<ListSlots *> Columns,
                     const Value &V);
  bool tupleListMethod(TSNode N, llvm::StringRef Method, TSNode Object);
  bool unrolledTupleLoop(TSNode N, const Value &Iterable);

  //===-- Devices (Placement.cpp) -----------------------------------------===//
  /// The CUDA device a device argument names by a constant index ('cuda:1',
  /// torch.device('cuda', 1), 1), or none.
  std::optional<int8_t> deviceIndex(TSNode Arg, unsigned Depth = 0);
  /// `with torch.cuda.device(d):` makes device d current over the body.
  void enterDevice(TSNode Call, TSNode Body);

  //===-- Calls (BuildCalls.cpp; TensorCalls.cpp; UnknownCode.cpp) -------===//
  struct Args {
    std::vector<TSNode> Positional;
    std::vector<std::pair<llvm::StringRef, TSNode>> Keywords;
    TSNode keyword(llvm::StringRef Name) const;
    /// Positional argument \p I, or keyword \p Name.
    TSNode get(unsigned I, llvm::StringRef Name) const;
  };
  Args argsOf(TSNode Call);
  /// A def not run in place that returns tensors it makes: a new tensor
  /// made on the current stream (ReturnSummaries.cpp).
  bool summarizedReturn(TSNode Call, const Args &A, Value &Result);
  /// `self.d` of a dict attribute of tensors (AttributeDicts.cpp): the
  /// variable of its values, NoVar when \p Dict is not one.
  VarId dictAttributeVar(TSNode Dict);
  bool madeDict(TSNode Dict); ///< `self.d` the class only makes `{}`
  bool dictAttributeRead(TSNode N, Value &Out); ///< `self.d[k]`, get, pop
  /// `self.d[k] = v` of one: the value stored.
  bool dictAttributeStore(TSNode Target, const Value &V);
  /// `t.untyped_storage().resize_(0)`: a free (freesStorageAtZero).
  bool freeStorage(TSNode Call, const Args &A);
  /// `t.set_(source, ...)` of a local: t names the source's storage.
  bool setStorage(TSNode Call, const Args &A);
  /// What \p Call does to the gradients (lib/model/Gradients.h), \p Of
  /// the receiver of a method of an optimizer (null: a tensor's backward).
  bool gradientUse(TSNode Call, TSNode Of, llvm::StringRef Method);
  Value call(TSNode N);
  Value apiCall(TSNode N, int Api, const std::string &Q, const Args &A);
  /// torch.X(...): the model's recipe for \p Effect.
  Value torchFunction(TSNode N, ApiEffect Effect, llvm::StringRef Bare,
                      const Args &A);
  /// Emits the model's recipe for \p C; a step's At indexes \p Nodes.
  void emitRecipe(const Recipe &R, llvm::ArrayRef<TSNode> Nodes);
  /// Adds \p V (a tensor, or each list element) to C.Args, sited at \p At.
  void addTensorArg(const Value &V, TSNode At, TensorCall &C,
                    std::vector<TSNode> &Nodes);
  Value tensorMethod(TSNode N, const Value &Self, llvm::StringRef Method,
                     const Args &A);
  Value streamMethod(TSNode N, const Value &Self, llvm::StringRef Method,
                     const Args &A);
  Value eventMethod(TSNode N, const Value &Self, llvm::StringRef Method,
                    const Args &A);
  /// A call of code the analysis does not see: its arguments are lowered,
  /// their tensors read on the current stream there (\p Reads; host memory
  /// in stream order, as a copy, \p InStreamOrder), and what they hold may
  /// be kept there (\p Escapes).
  Value unknownCall(const Args &A, bool Escapes, bool Reads = false,
                    bool InStreamOrder = false);
  /// A call \p N of code the analysis does not see, as \p Who may act on
  /// its arguments (lib/lower/UnknownCode.h).
  Value unknownCode(TSNode N, const Args &A, lower::UnknownCallee Who);
  /// Whether \p Method is one a container uses only to keep what it is
  /// given (`append`, `put`, `update`).
  static bool onlyKeeps(llvm::StringRef Method);
  /// Whether \p Fn names a class by Python's naming convention (CapWords):
  /// calling it makes an object that keeps its arguments.
  bool namesClass(TSNode Fn);
  /// `e.wait()`, `e.wait(s)`, `e.synchronize()` of a value not followed: a
  /// wait on what it may be (false: not such a call).
  bool unknownWait(TSNode N, llvm::StringRef Method, const Args &A);
  /// A torch.distributed collective (Collectives.cpp).
  Value collectiveCall(TSNode N, const ApiEntry &Row, const Args &A);
  /// A functional collective (Collectives.cpp): \p In is its input.
  Value functionalCollective(TSNode N, const ApiEntry &Row, const Args &A,
                             const Value &In, TSNode InArg);
  /// One P2POp of a batch_isend_irecv list.
  struct BatchOp {
    bool Receive = false; ///< irecv (writes), else isend (reads)
    TSNode At{};
    Value Tensor;
    TSNode Group{};
  };
  /// The ops of a batch_isend_irecv list, or none when any is not read.
  std::vector<BatchOp> batchOps(TSNode List);
  /// Whether the name \p Name is bound to a collective's work handle.
  bool holdsWork(TSNode Name) const;
  /// A use of the name \p Name (its value \p V) other than a method call
  /// on it: a work handle is taken as waited there.
  void workUse(TSNode Name, const Value &V);
  /// The internal stream of the process group \p Group (null: default).
  StreamRef groupStream(TSNode Group);
  /// Whether the current_stream() call \p Query is only made to wait.
  bool onlyWaits(TSNode Query) const;
  /// `threading.Thread(target=f, args=(...), kwargs={...})`.
  void threadCall(TSNode N, const Args &A);
  /// The non_blocking argument: by keyword, or at \p Position (null: none).
  static TSNode nonBlockingArg(const Args &A, unsigned Position);
  bool nonBlocking(const Args &A, unsigned Position);
  /// `x.cpu()`, `x.item()`, `x.to(device)` without non_blocking: a copy
  /// that blocks the host if x (not followed) is a CUDA tensor.
  bool blockingCopyOfUnknown(llvm::StringRef Method, const Args &A);
  /// The condition of an if, elif, while or assert, or bool()'s argument:
  /// a tensor's truth is read on the host, as by item().
  Value truthTest(TSNode N);
  std::string device(TSNode Arg);
  std::optional<int64_t> constantArg(const Args &A, unsigned Index,
                                     llvm::StringRef Name, int64_t Default);

  //===-- Same-file helpers and classes run in place (Helpers.cpp) --------===//
  /// A call of a def or method of this file that uses streams: runs its
  /// body here. False: not one (the caller lowers it as unknown code).
  bool helperCall(TSNode N, Value &Result);
  /// A call of a def of another module of the project, \p Qualified as
  /// its imports name it (`from .ops import fill`): runs it in place.
  bool moduleHelperCall(TSNode N, const std::string &Qualified, const Args &A,
                        Value &Result);
  /// `with Cls(...):` of a class of this file (__init__ and __enter__ run
  /// here, __exit__ at every exit of \p Body); `with gen(...):` of a
  /// @contextmanager generator of it (the code before and after the yield).
  bool enterObject(TSNode Call, TSNode Body);
  bool enterGenerator(TSNode Call, TSNode Body);
  /// Binds the parameters of \p Def (a method's first one is \p Self) to
  /// \p A and runs its body in place at \p Call. False: over the bound.
  /// The def of this file \p Fn names: a def of this scope or an enclosing
  /// one, `x.method` of an object followed here, `self.method` in a method.
  std::optional<CalleeDef> calleeDef(TSNode Fn);
  /// Whether \p Def runs as written: undecorated, or decorated only with
  /// modes that touch no stream (`@torch.no_grad()`).
  bool runsAsWritten(TSNode Def) const;
  /// Which argument each parameter of \p Def gets (a method's first
  /// parameter is its object), and the classes they hold.
  ArgumentMatch matchArguments(TSNode Def, const Args &A, bool Method);
  /// Lowers the arguments of \p M and binds the parameters of \p Callee's
  /// scope to them at \p At (\p Escapes: each may also be kept beyond this
  /// function). Returns the tensor parameters to unbind after the body.
  llvm::SmallVector<VarId, 4> bindArguments(const ArgumentMatch &M,
                                            const Scope *Callee, SiteId At,
                                            bool Escapes);
  /// The variable of parameter or local \p Name of a helper's scope.
  VarId paramVar(const Scope *S, const std::string &Name);
  bool runInPlace(TSNode Call, const Args &A, TSNode Def, const Scope *Outer,
                  const Instance *Self, bool Method, Value &Result,
                  llvm::StringRef CalleeName = "", int Part = 0);
  /// The body of \p Def run in place for arguments of \p Classes, and
  /// flags given \p Constants (none: over MaxInlinedCallees).
  std::optional<BodyId>
  helperBody(TSNode Def, const Scope *Outer, const Instance *Self,
             const llvm::StringMap<VarClass> &Classes,
             const llvm::StringMap<VarId> &Events, int Part = 0,
             const llvm::StringMap<bool> *Constants = nullptr);
  /// `Cls(args)` of a class of this file that uses streams: a new object,
  /// its attributes bound, its __init__ run in place (null: not one).
  const Instance *newObject(TSNode Call, TSNode Class);
  /// Whether the store `self.x = v` of \p Target hands v to the analysed
  /// method's object for good (KeptTensors.cpp).
  bool keptBySelf(TSNode Target);
  /// What `Class(...)` gives, as its metaclass (read in \p CF, of
  /// imports \p CI) says.
  enum class Construction {
    New,     ///< a new object: no metaclass, or abc's
    Shared,  ///< maybe one it gave before: the metaclass defines __call__
    Unknown, ///< a metaclass the analysis cannot read
  };
  Construction construction(TSNode Class, const SourceFile &CF,
                            const Imports &CI, HelperIndex &CX);
  /// `Rec(args)` of a @dataclass, a typing.NamedTuple class or a
  /// collections.namedtuple() of this file: an object whose tensor fields
  /// are bound to the arguments (Records.cpp; null: not a record).
  const Instance *newRecord(TSNode Call);
  /// The object the name \p Name is bound to in its scope (null: none).
  const Instance *objectNamed(TSNode Name) const;

  //===-- Dicts of tensors with constant keys (Dicts.cpp) -----------------===//
  /// `{"k": t, ...}`: a dict whose entries are followed when every key is
  /// a plain string.
  Value dictLiteral(TSNode N);
  /// `d["k"]` of a dict followed: its entry (false: not one).
  bool dictEntry(TSNode Subscript, Value &Out);
  /// `d["k"] = v`: stores v in the entry (false: not a dict followed).
  bool storeDictEntry(TSNode Target, const Value &V);
  /// `d.get("k")`, `d.pop(...)`, ...: false when \p Call is no method of
  /// a dict followed.
  bool dictMethod(TSNode Call, Value &Out);
  /// The dict's entries are no longer known (handed on, changed by code
  /// not followed).
  void forgetEntries(const Instance &D, TSNode At);
  /// `x = Cls(...)`, `with Cls(...) as x`: x names the object, when
  /// nothing else binds it in its scope.
  void nameObject(TSNode Target, const Instance *Object);
  /// `self.x` of an object followed here: its value (false: not followed).
  bool attributeValue(TSNode Attribute, Value &Out);
  /// `self.xs[k]` of a list attribute of tensors or events, k a constant
  /// or a name the function never rebinds: one element, a variable of the
  /// object (AttributeElements.cpp; false: not followed).
  bool attributeElement(TSNode Subscript, Value &Out);
  /// `self.x = v`: true when x is followed (and v bound to it).
  bool bindAttribute(TSNode Target, const Value &V);
  /// `torch.cuda.set_stream(Arg)` sets a stream for the rest of the program
  /// on purpose: in a constructor that keeps it in `self`, or in a def that
  /// keeps it in a module global (ProcessStreams.cpp).
  bool setsForProcess(TSNode Arg) const;
  bool setsForProcessUncached(TSNode Arg) const;
  /// `set_stream(self.saved)` of an attribute its class saves the current
  /// stream in: a restore.
  bool restoresSaved(TSNode Arg) const;
  /// What \p S tells of leaving a stream set (lib/lower/LeavesStreamSet.h).
  lower::LeaveSetEvidence leaveSetEvidence(const Scope &S) const;
  /// Whether every stream \p Def sets (itself, or through the forwarding
  /// setters of the file it calls) is a parameter; \p Sets: it sets one.
  bool forwardsSets(TSNode Def, const Scope &Module, unsigned Depth,
                    bool &Sets) const;

  //===-- Threads started later (Threads.cpp)
  //------------------------------===//
  /// Where the thread a Thread(...) call makes starts: `Thread(...).start()`
  /// (that call), or `t = Thread(...)` with `t.start()` in this body (null,
  /// and \p Var is t). Neither: where it is made (the call itself).
  TSNode threadStart(TSNode ThreadCall, std::string &Var);
  /// `t.start()` of a thread made earlier in this body: spawns it.
  bool startThread(TSNode Call);
  /// `ex.submit(f, ...)`, `ex.map(f, ...)` on a ThreadPoolExecutor made in
  /// this body, `asyncio.to_thread(f, ...)`, `loop.run_in_executor(ex, f,
  /// ...)`: f runs on a worker thread.
  bool submitTask(TSNode Call);
  /// Runs \p Target (a def, a method, a lambda; else unreadTask's body) on
  /// a new thread that starts at \p N or at its `.start()`; \p Given: what
  /// it is handed (bound to its parameters when \p Bind).
  void spawnThread(TSNode N, TSNode Target, const Args &Given, bool Bind);
  BodyId unreadTask(const Args &Given);

  //===-- Host-side ordering between threads (HostOrder.cpp) -------------===//
  /// The channel \p Object (a name, `self.x`) is, for host waits and
  /// signals; NoVar for any other expression.
  VarId channelVar(TSNode Object);
  /// Whether \p Object (a name, `self.x`) only ever holds a host thread's
  /// channel made here (`threading.Event()`, `queue.Queue()`).
  bool hostOnlyChannel(TSNode Object);
  /// A host wait or signal of the model's (`t.join()`, `ev.set()`,
  /// `concurrent.futures.wait(fs)`): its facts, before the call's own.
  /// \p Qualified: the callee's resolved name, if any.
  bool hostOrderCall(TSNode Call, llvm::StringRef Qualified);
  void hostOrder(ApiEffect E, VarId Channel, TSNode At);

  //===-- Streams kept in objects, globals, side parameters ---------------===//
  /// A method analysed on its own: `self` is an object of its class, its
  /// stream and event attributes variables of it; one only ever given
  /// fresh streams is a stream of its own (AttributeStreams.cpp).
  void followSelf(const Scope &S);
  /// A stream parameter the def tests against None: the def starts on two
  /// paths, and on the one where the test finds it None, entering it
  /// switches nothing (it is the current stream there; BranchConditions.cpp).
  void optionalStreamParameters(const Scope &S);
  /// Hands \p O's tensor attributes to the engine as the object's fields,
  /// with what the class's methods leave in them (ObjectFields.cpp).
  void followFields(const Scope &S, TSNode Class, Instance &O,
                    const llvm::StringMap<VarClass> &Attrs);
  /// A module global \p V, seen from a def: only ever the fresh stream of
  /// its one assignment (StreamProof::Global), when it is.
  void proveGlobal(llvm::StringRef Name, const Scope &Module, Variable &V);
  /// The root def's stream parameters it uses as side streams
  /// (SideParameters.cpp): StreamProof::SideParameter.
  void proveSideParameters(const Scope &S);
  /// Whether the local \p Var, bound at \p Target to what unread code gives,
  /// is a side stream by its use (SideParameters.cpp): StreamProof::SideLocal.
  bool sideLocal(VarId Var, TSNode Target);

  //===-- Variables, objects, sites, facts --------------------------------===//
  VarId varOf(llvm::StringRef Name);
  VarId syntheticVar(const char *Name, VarClass C, TSNode Key);
  /// A new variable of the IR that stands for no name of the code (never
  /// named in messages).
  VarId newSyntheticVar(std::string Name, VarClass C);
  ObjectId objectOf(TSNode N);
  SiteId site(SiteKind K, TSNode N);
  SiteId siteAt(SiteKind K, Position P, uint64_t Order);
  void emit(SiteId At, Fact::Op What);
  void access(bool Write, const Value &T, TSNode At, bool Async = false,
              bool Copy = false);

  const SourceFile &F;
  const Imports &I;
  HelperIndex *X;
  /// What the methods of the analysed method's class leave in its fields
  /// (null: nothing known yet).
  const FieldCarries *Carries = nullptr;
  bool SideStreamParameters = true;
  ModuleCache *Modules = nullptr;
  Function *IR = nullptr;
  LoweredFunction *Out = nullptr;
  const Scope *Root = nullptr;
  /// The analysed def's own code uses streams (a helper's effects on what
  /// it is given may meet work on another stream there).
  bool RootUsesStreams = false;
  VarId HookGradient = NoVar; ///< a gradient hook's (GradientHooks.h)
  BodyState *St = nullptr;
  std::map<std::pair<const Scope *, std::string>, VarId> Vars;
  std::map<std::pair<const void *, uint64_t>, ObjectId> Objects; // per copy
  std::map<std::pair<std::string, const void *>, VarId> Synthetic;
  /// Tensors in parameters of the analysed def (elementByUse): each is
  /// ready at entry, as a parameter is, declared at its name.
  std::vector<std::pair<VarId, SiteId>> ElementParams;
  /// The features' state, each in a unit of its own.
  HelperRuns Runs;
  ObjectTable Objs;
  ListTable ListVars;
  ThreadTable Threads;
  BuildMemo Memo;
};

} // namespace streamsafe::py

#endif // STREAMSAFE_LIB_PYTHON_BUILDER_H
