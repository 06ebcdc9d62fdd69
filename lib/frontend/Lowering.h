//===--- Lowering.h - Clang statements to stream facts ----------*- C++ -*-===//
//
// The Clang front end: lowers each CFG element once to facts of the IR
// (lib/ir/IR.h). Operands are resolved here as far as syntax allows (views
// to their base, stream accessors to their stream, pointers to the tensor
// they came from), and the syntactic questions the solver would otherwise
// ask on every visit (is this event recorded later in the loop, is this
// pointer kept for later) are answered once. Statements are lowered in
// LowerStatements.cpp, calls by their API table effect in LowerCalls.cpp
// (thread starts in LowerThreadCalls.cpp, c10d collectives in
// LowerCollectives.cpp), calls the table does not know (same-file helpers,
// launchers, unknown code) in LowerOtherCalls.cpp, operands in
// LowerOperands.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_FRONTEND_LOWERING_H
#define STREAMSAFE_LIB_FRONTEND_LOWERING_H

#include "lib/frontend/ApiTable.h"
#include "lib/frontend/BranchConditions.h"
#include "lib/frontend/Containers.h"
#include "lib/frontend/LocalRecords.h"
#include "lib/frontend/ValueExprs.h"
#include "lib/ir/IR.h"
#include "lib/lower/Collectives.h"
#include "lib/model/Recipes.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <functional>
#include <map>
#include <optional>

namespace clang {
class ASTContext;
class CallExpr;
class CXXMemberCallExpr;
class CXXOperatorCallExpr;
class VarDecl;
class CUDAKernelCallExpr;
class LambdaExpr;
class ParentMap;
class SourceManager;
class Stmt;
} // namespace clang

namespace streamsafe {

class ObjectStreams;

/// The lambdas a helper run in place was handed, by parameter: a call of
/// the parameter in its body runs the lambda there.
using BoundCallables = llvm::SmallVector<
    std::pair<const clang::ParmVarDecl *, const clang::LambdaExpr *>, 2>;

/// Lowers one function's statements into \p IR.
class Lowering {
public:
  /// Lowers a callable's body and returns its id in the function.
  using BodyLowerer = std::function<BodyId(const clang::LambdaExpr &)>;
  /// The body of a callee that runs in place at its call sites, or (\p
  /// Thread) as a thread's body, if any.
  using CalleeLowerer = std::function<std::optional<BodyId>(
      const clang::FunctionDecl &, const BoundCallables &, bool Thread)>;

  /// \p Held: what the unit proves of its members and globals (null:
  /// nothing).
  Lowering(clang::ASTContext &Ctx, ApiTable &Table, Function &IR,
           BodyLowerer LowerBody, CalleeLowerer LowerCallee,
           ObjectStreams *Held);

  /// The function whose statements are lowered next, its parent map and
  /// its branch conditions (\p Index names them for context()).
  void setContext(const clang::FunctionDecl &F, const clang::ParentMap &Parents,
                  const BranchConditions &Conditions, unsigned Index,
                  const BoundCallables &Callables);
  unsigned context() const { return ContextIndex; }
  /// The analysed lambda's gradient, when it is a gradient hook that
  /// replaces it (GradientHooks.h); null otherwise.
  const clang::ParmVarDecl *hookGradient() const { return HookGradient; }
  /// The fields of parameter objects the analysed function uses as
  /// tensors (callerField), with where each is declared.
  const std::vector<std::pair<VarId, SiteId>> &callerFields() const {
    return CallerFields;
  }

  void lower(const clang::CFGElement &Elem, FactList &Out);

  //===-- Variables, objects and sites ------------------------------------===//
  VarId varOf(const clang::NamedDecl *D);
  ObjectId objectOf(const void *Node);
  SiteId site(SiteKind K, clang::SourceLocation L, const clang::Stmt *S,
              const clang::Decl *D = nullptr);
  /// A site at the beginning of \p S. (Through Stmt: CallExpr's own
  /// getBeginLoc() gives an overloaded operator's location, not its first
  /// operand's.)
  SiteId site(SiteKind K, const clang::Stmt *S);

private:
  //===-- Statements (LowerStatements.cpp) --------------------------------===//
  void lowerStmt(const clang::Stmt *S, FactList &Out);
  void lowerDecl(const clang::VarDecl *V, const clang::Stmt *DS, FactList &Out);
  void lowerDtor(const clang::CFGAutomaticObjDtor &D, FactList &Out);
  void lowerReturn(const clang::ReturnStmt *RS, FactList &Out);
  void lowerAssign(const clang::BinaryOperator *BO, FactList &Out);
  void lowerLambda(const clang::LambdaExpr *LE, FactList &Out);
  void lowerConstruct(const clang::CXXConstructExpr *CE, FactList &Out);
  /// Runs the body of an RAII object's constructor or destructor in place,
  /// when it waits for the host or uses streams.
  bool runSpecialMember(const clang::CXXMethodDecl *M, SiteId At,
                        FactList &Out);
  void bind(const clang::VarDecl *V, const clang::Expr *Value, SiteId At,
            FactList &Out);
  /// True when \p S is inside a loop of the function (it may run again).
  bool inLoop(const clang::Stmt *S) const;
  /// The pointer of `p[i]` or `*p`, or null.
  const clang::Expr *pointerElementBase(const clang::Expr *E) const;

  //===-- Calls (LowerCalls.cpp)
  //-------------------------------------------===//
  void lowerCall(const clang::CallExpr *CE, FactList &Out);
  void lowerKernelLaunch(const clang::CUDAKernelCallExpr *KE, FactList &Out);
  void lowerTensorOperator(const clang::CXXOperatorCallExpr *OC, FactList &Out);
  bool lowerStreamCall(const clang::CallExpr *CE, const ApiEntry &A,
                       FactList &Out);
  bool lowerEventCall(const clang::CallExpr *CE, const ApiEntry &A,
                      FactList &Out);
  bool lowerMemoryCall(const clang::CallExpr *CE, const ApiEntry &A,
                       FactList &Out);
  bool lowerThreadCall(const clang::CallExpr *CE, const ApiEntry &A,
                       FactList &Out);
  /// What \p CE does to the gradients (lib/model/Gradients.h):
  /// `loss.backward()`, a torch::optim::Optimizer's step() and zero_grad().
  /// Whether it is an optimizer's (nothing else to lower).
  bool lowerGradientUse(const clang::CallExpr *CE, FactList &Out);
  bool lowerTensorMethod(const clang::CXXMemberCallExpr *MC, const ApiEntry &A,
                         FactList &Out);
  bool lowerAtenCall(const clang::CallExpr *CE, const ApiEntry &A,
                     FactList &Out);
  /// CUDA graph capture (LowerCapture.cpp).
  bool lowerCaptureCall(const clang::CallExpr *CE, const ApiEntry &A,
                        FactList &Out);
  CaptureMode captureMode(const clang::CallExpr *CE, int Index) const;
  /// A cudaStreamCaptureMode value (Unknown: not a constant).
  CaptureMode modeValue(const clang::Expr *E) const;
  /// `&x` to `x`; anything else as it is.
  static const clang::Expr *stripAddressOf(const clang::Expr *E);
  /// c10::cuda::CUDAStreamCaptureModeGuard g{mode}: the thread's capture
  /// mode becomes mode until g's scope ends.
  bool lowerCaptureModeGuard(const clang::VarDecl *V, const clang::Stmt *DS,
                             FactList &Out);
  void lowerUnknownCall(const clang::CallExpr *CE, FactList &Out);

  //===-- c10d collectives (LowerCollectives.cpp) -------------------------===//
  /// What becomes of a collective's work handle.
  lower::WorkUse workUseOf(const clang::CallExpr *CE) const;
  StreamRef groupStream(const clang::Expr *Group);
  bool lowerCollectiveCall(const clang::CallExpr *CE, const ApiEntry &A,
                           FactList &Out);
  bool bindWork(VarId V, const clang::Expr *Value, SiteId At, FactList &Out);
  void handOnEvent(FactList &Out, SiteId At, const clang::Expr *Arg);
  bool lowerInlinedCall(const clang::CallExpr *CE, FactList &Out);
  void escapeCapturedEvents(const clang::LambdaExpr &L,
                            const clang::CallExpr *At, FactList &Out);
  /// Binds \p Def's parameters to \p Args at \p At; returns the variables
  /// to unbind after the body has run.
  llvm::SmallVector<VarId, 4>
  bindParameters(const clang::FunctionDecl &Def,
                 llvm::ArrayRef<const clang::Expr *> Args, SiteId At,
                 FactList &Out);
  /// The variable a callee's returned tensor is bound to.
  VarId returnVar(const clang::FunctionDecl &F);
  void lowerLauncher(const clang::CallExpr *CE, const clang::FunctionDecl &FD,
                     FactList &Out);
  /// Whether the current-stream query \p Query is only made to wait.
  bool onlyWaits(const clang::CallExpr *Query);
  void spawn(const clang::Stmt *At, llvm::ArrayRef<const clang::Expr *> Args,
             const clang::Expr *Executor, FactList &Out);

  //===-- Host-side ordering between threads (LowerHostOrder.cpp) ---------===//
  /// The channel the object \p E denotes (a variable, a field; a future
  /// is its promise's), or NoVar.
  VarId channelOf(const clang::Expr *E);
  /// The graph object \p E names (`g`, `&graph`, a member): NoVar if none.
  VarId graphVar(const clang::Expr *E);
  /// What a host wait on orders after the thread \p At starts: the
  /// std::thread or future it initialises, the pool it runs on.
  VarId joinableOf(const clang::Stmt *At);
  bool lowerHostOrderCall(const clang::CallExpr *CE, const ApiEntry &A,
                          FactList &Out);
  void hostOrder(ApiEffect E, VarId Channel, SiteId At, FactList &Out);

  //===-- Operands (LowerOperands.cpp)
  //-------------------------------------===//
  TensorRef tensorRef(const clang::Expr *E);
  /// `bucket.grad_data` of a parameter object of the analysed function: the
  /// caller's tensor, one variable per parameter and field, ready at entry
  /// (callerFields()); NoVar for any other member.
  VarId callerField(const clang::MemberExpr *ME);
  /// The name a tensor operand is written with (a view's base, a field).
  VarId tensorName(const clang::Expr *E);
  StreamRef streamRef(const clang::Expr *E);
  VarId eventVar(const clang::Expr *E);
  /// The tensor behind a raw pointer or DataPtr argument (t.data_ptr<T>(),
  /// t.storage().data_ptr(), a local pointer initialised from one).
  const clang::Expr *tensorBehindPointer(const clang::Expr *E);
  /// Appends the tensor operands of \p E (a tensor, or a braced list or
  /// TensorList of tensors) to \p Out.
  void collectTensors(const clang::Expr *E,
                      llvm::SmallVectorImpl<const clang::Expr *> &Out);
  /// The argument at \p Index of a row, or null (absent, defaulted).
  const clang::Expr *arg(const clang::CallExpr *CE, int Index) const;
  /// The stream at \p Index, or \p Absent when it is not written.
  StreamRef streamArg(const clang::CallExpr *CE, int Index, StreamRef Absent);
  /// Where a factory's or a to()'s result lives (LowerPlacement.cpp).
  /// \p Like: a _like factory or a to(), whose default is the source's
  /// device.
  /// Source: no device stated, so where the source tensor lives.
  /// \p Device: set to the device's index when the options name a CUDA
  /// device with a constant index.
  Placement placementOf(const clang::CallExpr *CE, bool Like,
                        int8_t *Device = nullptr);
  /// A device with a constant index: `1`, `at::Device(at::kCUDA, 1)`,
  /// `"cuda:1"`, a local holding one; none otherwise (`x.device()`).
  std::optional<int8_t> deviceIndexOf(const clang::Expr *E);

  //===-- Regions and lists of pieces (LowerRegions.cpp)
  //-------------------===//
  /// The part of its storage a tensor operand touches.
  Region regionOf(const clang::Expr *E);
  Region varRegion(const clang::VarDecl *V);
  Region viewRegion(const clang::CallExpr *View, llvm::StringRef Name,
                    unsigned FirstArg);
  Region pieceRegion(const clang::Expr *List, const clang::Expr *Index);
  /// `x.chunk(n)`, `x.split(s)`, `x.unbind()`: views of x's pieces.
  const clang::CXXMemberCallExpr *pieceListCall(const clang::Expr *E);
  /// A local std::vector initialised with such a call (followed as a view
  /// of the tensor), or such a call.
  bool isPieceListVar(const clang::VarDecl *V);
  bool isPieceList(const clang::Expr *E);
  /// The list of pieces a range-for variable walks, or null.
  const clang::Expr *rangeOfLoopVar(const clang::VarDecl *V);
  /// True when the variable may name another tensor after its
  /// initialisation (assigned, passed by non-const reference).
  bool rebound(const clang::VarDecl *V);
  bool recordedLaterInLoop(const clang::Stmt *Wait, VarId Event);

  //===-- Containers of tensors (LowerContainers.cpp)
  //----------------------===//
  /// The followed container \p E names (a local variable), or null.
  const ContainerInfo *containerOf(const clang::Expr *E,
                                   const clang::VarDecl **V = nullptr);
  /// The tensor a use of a followed container denotes (an element, every
  /// element, the loop variable of a range-for over one, a structured
  /// binding); none when \p E is no such use.
  std::optional<TensorRef> containerTensorRef(const clang::Expr *E);
  /// std::get<k> of a structured binding's hidden object, when that is a
  /// followed container or a copy of one.
  std::optional<TensorRef> bindingElement(const clang::Expr *E);
  /// The range-for over a followed container whose variable \p V is.
  const ContainerUse *loopOverContainer(const clang::VarDecl *V,
                                        const clang::VarDecl **C);
  VarId slotVar(const clang::VarDecl *C, unsigned Slot);
  TensorRef slotRef(const clang::VarDecl *C, unsigned Slot);
  /// Binds and unbinds the slots a use binds or kills.
  void lowerContainerUse(const ContainerUse &U, const clang::VarDecl *C,
                         SiteId At, FactList &Out);
  bool lowerContainerCall(const clang::CallExpr *CE, FactList &Out);
  bool lowerContainerDecl(const clang::VarDecl *V, const clang::Stmt *DS,
                          FactList &Out);
  void hoistLoopRecords(const clang::Stmt *RangeStmt, FactList &Out);
  bool lowerContainerDtor(const clang::VarDecl *V, SiteId At, FactList &Out);
  /// Replaces a fact on every element (a group) by one fact per element.
  bool expandGroup(FactList &Out, SiteId At, const Fact::Op &What);
  bool pointerKeptForLater(const clang::Stmt *RawPointerCall) const;

  //===-- Fact builders
  //----------------------------------------------------===//
  void emit(FactList &Out, SiteId At, Fact::Op What);
  void access(FactList &Out, bool Write, const clang::Expr *Tensor,
              StreamRef Stream, bool Async = false, bool Copy = false,
              const clang::Stmt *At = nullptr);
  /// Emits the model's recipe for \p C (Recipes.h); a step's At indexes
  /// \p Nodes.
  void emitRecipe(const TensorCall &C,
                  llvm::ArrayRef<const clang::Stmt *> Nodes, FactList &Out);
  /// Emits \p Steps (a recipe, or a lib/lower rule's) at \p Nodes.
  void emitSteps(const Recipe &Steps, llvm::ArrayRef<const clang::Stmt *> Nodes,
                 FactList &Out);
  /// Adds the tensors among \p CE's arguments from \p From on to C.Args.
  void collectTensorArgs(const clang::CallExpr *CE, unsigned From,
                         TensorCall &C,
                         llvm::SmallVectorImpl<const clang::Stmt *> &Nodes);
  /// The object of the new tensor \p CE returns (none: no tensor, or a
  /// reference to one).
  std::optional<ObjectId> resultOf(const clang::CallExpr *CE);
  void hostAccess(FactList &Out, bool Write, const clang::Expr *Tensor,
                  const clang::Stmt *At = nullptr);
  void escape(FactList &Out, SiteId At, const clang::Expr *Tensor);
  /// Whether \p Store, `Field = t` in the analysed method, hands t to the
  /// object's users for good (lib/lower/KeptTensors.h).
  bool keptByObject(const clang::CXXOperatorCallExpr *Store,
                    const clang::FieldDecl *Field);

  clang::ASTContext &Ctx;
  const clang::SourceManager &SM;
  ApiTable &Table;
  Function &IR;
  ObjectStreams *Held;
  /// The lambda \p E denotes: written there, through a variable or a
  /// std::function, or a parameter of the helper being lowered bound to one.
  const clang::LambdaExpr *callableOf(const clang::Expr *E);

  BodyLowerer LowerBody;
  CalleeLowerer LowerCallee;
  const clang::FunctionDecl *CurrentFunction = nullptr;
  /// The analysed function (context 0): its parameters are storages.
  const clang::FunctionDecl *Root = nullptr;
  const clang::ParmVarDecl *HookGradient = nullptr;
  std::map<std::pair<const void *, const void *>, VarId> CallerFieldVars;
  std::vector<std::pair<VarId, SiteId>> CallerFields;
  const clang::ParentMap *Parents = nullptr;
  const BranchConditions *Conditions = nullptr;
  unsigned ContextIndex = 0;
  /// The key of cudaStreamPerThread's one stream (streamRef).
  char PerThreadKey = 0;
  const BoundCallables *Callables = nullptr;
  llvm::DenseMap<const clang::NamedDecl *, VarId> Vars;
  llvm::DenseMap<const void *, ObjectId> Objects;
  ContainerModel Containers;
  /// Local structs followed member by member (LocalRecords.h): only the
  /// analysed function's own, not a helper's run in place.
  LocalRecords Records;
  const clang::FunctionDecl *analysedRoot() const {
    return CurrentFunction == Root ? Root : nullptr;
  }
  // Each feature's state, in a unit of its own.
  /// Regions (LowerRegions.cpp): the part of a storage each variable
  /// stands for, and the variables each function rebinds.
  struct RegionState {
    llvm::DenseMap<const clang::VarDecl *, Region> VarRegions;
    llvm::DenseMap<const clang::FunctionDecl *,
                   llvm::SmallPtrSet<const clang::VarDecl *, 8>>
        Rebound;
  } Regions;
  /// Helpers run in place (LowerOtherCalls.cpp, LowerStatements.cpp).
  struct InlineState {
    /// Calls whose callee runs in place: the variable holding its result.
    llvm::DenseMap<const clang::CallExpr *, VarId> Results;
    /// The variable each helper's returns bind.
    llvm::DenseMap<const clang::FunctionDecl *, VarId> ReturnVars;
  } Inlined;
  /// Threads (LowerThreadCalls.cpp).
  struct ThreadState {
    /// Variables that hold a thread or a task's future (joinableOf).
    llvm::DenseSet<VarId> Joinables;
  } Threads;
  /// Graph capture (LowerCapture.cpp).
  struct CaptureState {
    /// The capture-mode guards declared (their destructor restores the
    /// mode).
    llvm::DenseSet<const clang::VarDecl *> ModeGuards;
  } Capture;
  /// The gradients of a training step (LowerGradients.cpp; NoVar: none
  /// used yet).
  VarId GradientsVar = NoVar;
  /// Container slots (LowerContainers.cpp).
  struct SlotState {
    /// Slots of containers, as tensor variables, and the part of a
    /// storage each was given.
    llvm::DenseMap<std::pair<const clang::VarDecl *, unsigned>, VarId> Slots;
    llvm::DenseMap<VarId, Region> SlotRegions;
    /// Synthetic variables that stand for every element of a container
    /// at one use: the slot variables of each.
    llvm::DenseMap<const void *, VarId> GroupOfUse;
    llvm::DenseMap<VarId, llvm::SmallVector<VarId, 4>> Groups;
  } Slotted;
  /// The collectives' state (LowerCollectives.cpp).
  struct CollectiveState {
    /// The variable standing for each group's stream, by its declaration.
    llvm::DenseMap<const clang::NamedDecl *, VarId> Groups;
    /// The stream each followed collective call runs on, for its handle.
    llvm::DenseMap<const clang::CallExpr *, StreamRef> Works;
    /// Event variables holding a collective's work.
    llvm::DenseSet<VarId> WorkVars;
    /// Whether a function writes an options struct's asyncOp.
    llvm::DenseMap<const clang::FunctionDecl *, bool> AsyncOpWritten;
    /// The event the group's stream waits on at each call.
    VarId Ready = NoVar;
  } Collective;
};

} // namespace streamsafe

#endif // STREAMSAFE_LIB_FRONTEND_LOWERING_H
