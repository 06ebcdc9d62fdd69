//===--- HelperIndex.h - What a file defines, for helpers -------*- C++ -*-===//
//
// The questions running same-file helpers in place asks of the whole file
// (which class a name is, whether a subclass overrides a method, whether a
// def uses streams, which attributes of a class hold streams), answered
// once per file rather than at each call (lib/python/HelperIndex.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_PYTHON_HELPERINDEX_H
#define STREAMSAFE_LIB_PYTHON_HELPERINDEX_H

#include "lib/ir/IR.h"
#include "lib/lower/HeldStreams.h"
#include "lib/lower/KeptTensors.h"
#include "lib/lower/StreamSections.h"
#include "lib/model/Bounds.h"
#include "lib/python/GradientHooks.h"
#include "lib/python/Scope.h"
#include "lib/python/Syntax.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace streamsafe::py {

//===-- Defs and classes of the file, as Helpers.cpp and HelperObjects.cpp
//===-- read them
//----------------------------------------------------------===//

using bounds::MaxInlinedCallees;

/// The parameter names of a def, in order.
std::vector<std::string> paramNames(TSNode Def, const SourceFile &F);
/// Whether a def is decorated.
bool decorated(TSNode Def);
/// The class a def is a method of (null: none).
TSNode classOf(TSNode Def);
/// Whether \p Class has no base that may define its methods: no
/// superclass list, `(object)`, or keywords only (`metaclass=Singleton`: a
/// metaclass decides which object a call gives, not what its methods do).
bool baseless(TSNode Class, const SourceFile &F);
/// Whether \p Class's one base is threading.Thread, and its body defines
/// run(): its objects are threads whose start() runs that run().
bool threadSubclass(TSNode Class, const SourceFile &F, const Imports &I);
/// The undecorated method \p Name defined in \p Class's body (null: none).
TSNode methodOf(TSNode Class, llvm::StringRef Name, const SourceFile &F);
/// The defs of \p Class's body (decorated ones too, not static methods)
/// that take a first parameter: what may run on its objects with `self`
/// bound.
std::vector<TSNode> methodsWithSelf(TSNode Class, const SourceFile &F);
/// The yield statement of a @contextmanager generator and its statements
/// before and after it (null: not the one-yield shape). The yield may be
/// in a try (its finally runs after), or in a `with` of stream contexts
/// only (`with torch.cuda.stream(s): yield`): that statement is then the
/// last of Before and the first of After, and Builder::withStatement
/// lowers each half of it.
TSNode splitAtYield(TSNode Def, std::vector<TSNode> &Before,
                    std::vector<TSNode> &After, const Imports &I);
/// The values of a with statement's items (`with a as x, b:`: a, b).
std::vector<TSNode> withValues(TSNode With);

/// What one assignment gives an attribute: a fresh stream, None, or
/// anything else.
/// What a write gives a stream attribute (lib/lower/HeldStreams.h).
using AttributeGiven = lower::StreamGiven;

/// A stream attribute __init__ chooses by a flag (FlagStreams.cpp): a fresh
/// stream (made at Creation) when Cond is FreshWhen, anything else when not.
/// A stream attribute the maker gives and the class uses as a side stream
/// (SideAttributes.cpp): where it is entered, and, when it may be None,
/// the class's test of that (and whether its true edge is the None one).
struct SideStream {
  TSNode Entered{}, NoneTest{};
  bool NoneWhenTrue = false;
};

struct ChosenStream {
  TSNode Creation{}, Cond{};
  bool FreshWhen = true;
};

class HelperIndex {
public:
  HelperIndex(const SourceFile &F, const Imports &I);
  /// The module-level class \p Name (null: none, or defined twice).
  TSNode moduleClass(llvm::StringRef Name) const;
  /// The undecorated method \p Name an object of \p Class runs: its own,
  /// or one of its bases' in the file (null: none, or a base outside the
  /// file may define it).
  TSNode methodIn(TSNode Class, llvm::StringRef Name) const;
  /// The static method \p Name of \p Class or of the nearest class of its
  /// lineage that defines one (null: none, or a base not of the file may).
  TSNode staticMethodIn(TSNode Class, llvm::StringRef Name) const;
  /// Whether a class of the file derived from \p Class defines \p Method.
  bool overridden(TSNode Class, llvm::StringRef Method) const;
  /// Whether a def's own code uses the stream API (as the C++ pre-scan
  /// mentionsStreamApis): a stream, event or guard API, a stream or event
  /// method, a non_blocking copy.
  bool usesStreams(TSNode Def);
  /// Whether a def's own code makes the host wait through a tensor method
  /// (item(), tolist(), cpu(): isHostWaitEffect), as the C++ waitsForHost.
  bool waitsForHost(TSNode Def);
  /// The defs the file registers as gradient hooks (GradientHooks.h).
  const RegisteredHooks &gradientHooks() {
    if (!Hooks)
      Hooks = registeredHooks(F);
    return *Hooks;
  }
  /// The stream and event attributes of \p Class's objects: `self.x = v` in
  /// its methods, every v a stream (or every v an event).
  const llvm::StringMap<VarClass> &attributeClasses(TSNode Class,
                                                    const Scope &Module);
  /// The attributes of \p Class's objects that hold lists of tensors or of
  /// events, by the class of their elements: every `self.x = [...]`,
  /// comprehension, append and `self.x[k] = v` in its methods gives that
  /// class (AttributeElements.cpp).
  const llvm::StringMap<VarClass> &elementClasses(TSNode Class,
                                                  const Scope &Module);
  /// What the attributes of \p Class's objects hold, as it and its bases in
  /// the file assign them (a name they disagree on holds Other): what a
  /// method's `self.x` is.
  llvm::StringMap<VarClass> lineageAttributes(TSNode Class,
                                              const Scope &Module);
  /// \p Class and its bases defined in the file, nearest first (the classes
  /// whose methods run on its objects as far as the file says).
  std::vector<TSNode> lineage(TSNode Class) const;
  /// The file's classes whose methods may run on an object of \p Class:
  /// its lineage, the classes derived from it and their lineages.
  std::vector<TSNode> family(TSNode Class) const;
  /// The attributes of \p Class's objects that only ever hold fresh streams
  /// (AttributeStreams.cpp): each with the `self.x` target of the
  /// assignment that creates one (in __init__ when it does).
  const llvm::StringMap<TSNode> &freshAttributes(TSNode Class);
  /// Whether some def of the file declares \p Name global (it may rebind
  /// the module's variable), or the file passes it to set_stream (it may
  /// be the current stream).
  bool globalMayChange(llvm::StringRef Name);
  /// Whether the file passes the global \p Name to set_stream.
  bool passedToSetStream(llvm::StringRef Name);
  /// Whether every write of the attribute \p Name of \p Class's objects
  /// in the file is in an `__init__` or a class body (writes in methods of
  /// unrelated classes aside; no setattr that may name it): once an object
  /// is made, its methods read the same value each time
  /// (BranchConditions.cpp).
  bool setOnlyAtConstruction(TSNode Class, llvm::StringRef Name);
  /// Whether every value the file assigns to `Name` of \p Class's
  /// objects (None aside) is host memory by its own words: `device="cpu"`,
  /// `pin_memory=True`, `.pin_memory()`, `.cpu()`; \p Pinned: all pinned.
  bool hostAttribute(TSNode Class, llvm::StringRef Name, bool &Pinned);
  /// Whether every value the class gives attribute \p Name is a host
  /// thread's channel made here (`threading.Event()`, `queue.Queue()`:
  /// lib/model/HostOrder.h), and at least one is.
  bool hostChannelAttribute(TSNode Class, llvm::StringRef Name);
  /// The attribute of which every value the family gives \p Name is a
  /// view (`self.status = self.buf[a:b].view(torch.int32)`); "": none.
  std::string viewBase(TSNode Class, llvm::StringRef Name);
  /// Whether a method of \p Class's family calls `self.Name(...)`: Name
  /// runs in place in its caller there (HelperIndex.cpp).
  bool calledOnSelf(TSNode Class, llvm::StringRef Name);
  /// Whether a call in the file passes the current stream for parameter
  /// \p Index (counting a method's self) of \p Def (SideParameters.cpp).
  bool givenCurrentStream(TSNode Def, unsigned Index);
  /// Whether the file names a def called like \p Def as a thread's body
  /// (`Thread(target=f)`, `target=self.f`, `ex.submit(f, ...)`,
  /// `asyncio.to_thread(f, ...)`, `loop.run_in_executor(ex, f, ...)`): the
  /// stream it sets is its thread's (Threads.cpp).
  bool threadTarget(TSNode Def);
  /// Whether \p Def is a def nested in another whose code names it only
  /// as such a body: it only ever runs at the start of a new thread, on
  /// that thread's current stream, the default one.
  bool onlyRunOnThreads(TSNode Def);
  /// Whether the attribute \p Name of \p Class's objects only ever holds
  /// new ThreadPoolExecutors (or None): every write of it in the file, in
  /// the class's family or its body (Threads.cpp).
  bool executorAttribute(TSNode Class, llvm::StringRef Name);
  /// Whether \p Def is a method that saves the current stream in an
  /// attribute and sets another, where its class sets the attribute back
  /// (`begin()` to an `end()`): its stream is the section's
  /// (StreamSections.cpp).
  bool opensSection(TSNode Def);
  /// Whether a method of \p Class saves the current stream in `self.Attr`:
  /// setting it back is a restore.
  bool savedCurrent(TSNode Class, llvm::StringRef Attr);
  /// Whether every value \p Def returns is a tensor it makes with a torch
  /// op (or a factory told a device), and it uses no stream API: its call
  /// gives a new tensor made on the caller's current stream
  /// (ReturnSummaries.cpp).
  bool returnsNewTensor(TSNode Def);
  /// The class every `self.Name = Cls(...)` of \p Class's methods makes,
  /// as the file's imports qualify it (a name of the file: as written);
  /// "" when an assignment gives anything else or two disagree.
  std::string attributeConstructor(TSNode Class, llvm::StringRef Name);
  /// The stream attributes of \p Class's objects that __init__ makes a
  /// fresh stream under one edge of a branch and something else under the
  /// other (FlagStreams.cpp).
  std::optional<ChosenStream> flagStream(TSNode Class, llvm::StringRef Name);
  /// The attributes of \p Class's objects that its lineage only ever
  /// makes an empty dict and only ever stores tensors in
  /// (AttributeDicts.cpp).
  const llvm::StringSet<> &dictAttributes(TSNode Class, const Scope &Module);
  /// The attributes that \p Class's lineage only ever makes an empty dict,
  /// whatever it stores in them: `self.d[t]` hashes the tensor t, and
  /// reads none of its memory.
  const llvm::StringSet<> &madeDicts(TSNode Class);
  /// Whether no code of the file makes another stream or the host wait
  /// for a stream attribute named \p Attr (JoinedStreams.cpp).
  bool neverJoined(llvm::StringRef Attr);
  /// Adds the attributes \p M (whose object is \p Self; \p ScopeOf gives
  /// its scope, made when a store needs it) makes an empty
  /// dict to \p Made, those it stores a tensor in to \p Stored, and those
  /// it binds or fills otherwise to \p Bad.
  void scanDictStores(TSNode M, llvm::StringRef Self,
                      llvm::function_ref<const Scope &()> ScopeOf,
                      llvm::StringSet<> &Made, llvm::StringSet<> &Stored,
                      llvm::StringSet<> &Bad);
  /// The stream attributes of \p Class's objects given only parameters of
  /// `__init__` (or None) that its family enters as the current stream and
  /// calls a stream method on: each with the call that enters it
  /// (SideAttributes.cpp).
  const llvm::StringMap<SideStream> &sideAttributes(TSNode Class);
  /// What assigning \p Value gives an attribute (AttributeStreams.cpp).
  AttributeGiven attributeGiven(TSNode Value) const;
  /// What \p Class's family tells of a tensor its methods keep in
  /// `self.Name`: whether it records any tensor, reads `self.Name` outside
  /// any `with` statement, returns it from a method (KeptTensors.cpp; the
  /// rule is lib/lower/KeptTensors.h).
  void keptEvidence(TSNode Class, llvm::StringRef Name, lower::KeptEvidence &E);

private:
  /// The sections of a class's methods (the rule: lib/lower/StreamSections.h).
  const lower::StreamSections &sections(TSNode Class);
  llvm::DenseMap<const void *, lower::StreamSections> Sections;

  /// One write of an attribute that freshAttributes weighs, found by one
  /// walk of the file for all classes (AttributeStreams.cpp).
  struct AttributeWrite {
    enum Kind : uint8_t {
      Setattr,       ///< setattr(o, "Name", v): Name may hold anything
      SetattrOpaque, ///< setattr with a name not written out (Owner: on
                     ///< the self of a method of that class)
      SetStream,     ///< set_stream(o.Name): Name may be the current stream
      ClassBody,     ///< `Name = v` in the body of class Owner
      Member,        ///< `o.Name = v`; Owner: o is the self of its method
    } K = Setattr;
    llvm::StringRef Name;
    TSNode Target{}, Def{}, Owner{};
    AttributeGiven Given = AttributeGiven::Other;
    TSNode Value{}; ///< what is assigned (null: not one value)
  };
  const std::vector<AttributeWrite> &attributeWrites();
  bool setOnlyAtConstructionUncached(TSNode Class, llvm::StringRef Name);
  /// Whether method \p Def of \p Class runs only while an object is made:
  /// `__init__`, or a private method (`_init_streams`) that the family's
  /// methods call on self only from such methods (at least once).
  bool constructionMethod(TSNode Class, TSNode Def, unsigned Depth = 0);
  std::map<std::pair<const void *, std::string>, bool> SetAtConstruction;
  std::optional<std::vector<AttributeWrite>> AttributeWrites;

  /// Module-level class of a base in a superclass list (null: none).
  TSNode baseClass(TSNode Base) const;

  const SourceFile &F;
  const Imports &I;
  llvm::StringMap<TSNode> ModuleClasses;
  llvm::StringSet<> Overrides;
  llvm::DenseMap<const void *, bool> Streams;
  llvm::DenseMap<const void *, bool> HostWaits;
  llvm::DenseMap<const void *, bool> NewTensorReturns;
  std::optional<RegisteredHooks> Hooks;
  /// keptUnrecorded's scan of a class: whether its family records any
  /// tensor, the attributes it reads outside `with` statements, and those
  /// its methods return.
  struct KeptScan {
    bool Records = false;
    llvm::StringSet<> ReadPlainly, Returned;
  };
  llvm::DenseMap<const void *, KeptScan> Kept;
  llvm::DenseMap<const void *, llvm::StringMap<std::string>> Constructors;
  std::optional<ChosenStream> flagStreamUncached(TSNode Class,
                                                 llvm::StringRef Name);
  std::map<std::pair<const void *, std::string>, std::optional<ChosenStream>>
      FlagStreams;
  llvm::DenseMap<const void *, llvm::StringSet<>> Dicts, MadeDicts;
  llvm::StringSet<> JoinedAttributes;
  bool JoinedScanned = false, DeviceSynchronized = false;
  llvm::DenseMap<const void *, llvm::StringMap<SideStream>> SideAttributes;
  llvm::DenseMap<const void *, llvm::StringMap<VarClass>> Attributes;
  llvm::DenseMap<const void *, llvm::StringMap<VarClass>> Elements;
  llvm::DenseMap<const void *, llvm::StringMap<TSNode>> FreshAttributes;
  llvm::DenseMap<const void *, llvm::StringSet<>> SelfCalls;
  /// Every class of the file, nested ones too.
  std::vector<TSNode> Classes;
  void scanGlobals();
  std::optional<llvm::StringSet<>> Globals; ///< declared `global` in a def
  llvm::StringSet<> SetStreams;             ///< passed to set_stream
  std::optional<llvm::StringSet<>> ThreadTargets;
  llvm::DenseSet<const void *> TargetNodes; ///< the targets themselves
};

/// Whether \p Expr is `torch.cuda.current_stream(...)`.
bool isCurrentStreamCall(TSNode Expr, const Imports &I);
/// \p Value without the None it may be (`None`: null; `X if c else None`,
/// `None if c else X`: X), for what an attribute holds when it holds one.
TSNode withoutNone(TSNode Value);

} // namespace streamsafe::py

#endif // STREAMSAFE_LIB_PYTHON_HELPERINDEX_H
