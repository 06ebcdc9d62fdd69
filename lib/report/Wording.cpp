//===--- Wording.cpp - Findings in words, for every front end -------------===//
//
// The texts are written as clang diagnostic formats (%0, %1, ...) and
// substituted here, so a front end prints them as they are. The rules of
// graph capture are worded in WordingCapture.cpp.
//
//===----------------------------------------------------------------------===//

#include "lib/report/Wording.h"
#include "lib/report/Writer.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ErrorHandling.h"
#include <cctype>
#include <set>

namespace streamsafe::report {

std::string sub(const char *Format, std::initializer_list<std::string> Args) {
  std::vector<std::string> A(Args);
  std::string Out;
  for (const char *P = Format; *P; ++P) {
    if (P[0] == '%' && P[1] >= '0' && P[1] <= '9' &&
        unsigned(P[1] - '0') < A.size()) {
      Out += A[P[1] - '0'];
      ++P;
      continue;
    }
    Out += *P;
  }
  return Out;
}

const char *verb(AccessMode M) {
  switch (M) {
  case AccessMode::Read:
    return "read";
  case AccessMode::Write:
  case AccessMode::Fill:
    return "written";
  case AccessMode::Allocate:
    return "allocated";
  case AccessMode::EntryReady:
    return "ready";
  }
  return "used";
}

const char *noun(AccessMode M) {
  switch (M) {
  case AccessMode::Read:
    return "read";
  case AccessMode::Allocate:
    return "allocation";
  default:
    return "write";
  }
}

namespace {} // namespace

std::vector<Line> Writer::run() {
  std::visit([this](const auto &Details) { word(Details); }, F.Details);
  if (!CallNoted)
    noteCallSite();
  notePath();
  return std::move(Lines);
}

void Writer::notePath() {
  // A race on one path of several (a flag set, a stream given): which way
  // that path takes the branches it depends on.
  if (F.kind() != FindingKind::UnsynchronizedAccess &&
      F.kind() != FindingKind::MissingRecordStream &&
      F.kind() != FindingKind::HostReadBeforeSync)
    return;
  std::set<std::pair<uint64_t, bool>> Told;
  for (const Assumption &A : F.Path) {
    // One test may decide several (`x == 1` holding, `x == 2` fails), and
    // copies of a loop's body test it at one place: said once.
    if (A.At == NoSite ||
        !Told.insert({IR.Sites[A.At].Loc, A.CondHolds}).second)
      continue;
    // The condition as written, when it is short and on one line.
    std::string Text = V.TextAt ? V.TextAt(A.At) : "";
    std::string Cond = !Text.empty() && Text.size() <= 60 &&
                               Text.find('\n') == std::string::npos
                           ? "'" + Text + "'"
                           : "this condition";
    note(A.At, "on the path reported, " + Cond +
                   (A.CondHolds ? " is true" : " is false"));
  }
}

std::string Writer::callee(SiteId At, const std::string &Fallback) const {
  std::string Name = V.CalleeAt ? V.CalleeAt(At) : "";
  return Name.empty() ? Fallback : Name;
}

void Writer::noteCallSite() {
  if (F.CallSite == NoSite)
    return;
  note(F.CallSite, sub("in '%0', called here from '%1'",
                       {callee(F.CallSite, "the helper"), IR.Name}));
}

void Writer::noteStreamSetAt(const AccessInfo &A, const char *Verb) {
  if (!A.OnCurrentStream || A.StreamSetAt == NoSite)
    return;
  std::string S = stream(A.Stream);
  switch (IR.Sites[A.StreamSetAt].Kind) {
  case SiteKind::GuardEnter:
  case SiteKind::SetCurrent:
    note(A.StreamSetAt, sub("the current stream %0 set to %1 here", {Verb, S}));
    return;
  case SiteKind::GuardExit:
    note(A.StreamSetAt, sub("the current stream %0 restored to %1 here, "
                            "when the guard goes out of scope",
                            {Verb, S}));
    return;
  case SiteKind::ThreadStart:
    note(A.StreamSetAt, sub("the current stream is thread-local: the "
                            "thread started here runs on %0",
                            {S}));
    return;
  default:
    return;
  }
}

void Writer::noteCaptured(const AccessInfo &A, const std::string &Tensor) {
  if (A.CapturedAt == NoSite)
    return;
  note(A.CapturedAt,
       sub("'%0' is %1 here, in the capture of '%2': the work is recorded, "
           "and each replay runs it on the replay's stream",
           {Tensor, verb(A.Mode), name(A.Graph)}));
}

void Writer::noteProven(StreamDesc D) {
  if (D.ProvenAt == NoSite || llvm::is_contained(Proven, D.ProvenAt))
    return;
  if (D.Kind == StreamKind::EntryCurrent) {
    noteCallersSide();
    return;
  }
  if (D.Named == NoVar)
    return;
  Proven.push_back(D.ProvenAt);
  std::string Name = IR.var(D.Named).Name;
  if (D.Kind == StreamKind::SideLocal) {
    note(D.ProvenAt,
         sub("'%0', given by code the analysis does not read, is used as a "
             "side stream here, so it is taken to differ from the caller's "
             "current stream",
             {Name}));
    return;
  }
  if (D.Kind == StreamKind::SideParameter ||
      IR.var(D.Named).Proof == StreamProof::SideAttribute) {
    note(D.ProvenAt, sub("'%0' is used as a side stream here, so it is taken "
                         "to differ from the caller's current stream",
                         {Name}));
    return;
  }
  if (IR.var(D.Named).Proof == StreamProof::SharedAttribute) {
    note(D.ProvenAt,
         sub("'%0' is given a fresh stream by its class, and the object made "
             "here may be one its metaclass shares between calls: the stream "
             "outlives this call and is not the caller's current stream",
             {Name}));
    return;
  }
  note(D.ProvenAt,
       sub(D.Kind == StreamKind::Global
               ? "'%0' is given a fresh stream here and never another stream, "
                 "so "
                 "it is not the caller's current stream"
               : "'%0' is given a fresh stream here, as by every assignment "
                 "of the class, so it is not the caller's current stream",
           {Name}));
}

void Writer::word(const finding::UnsynchronizedAccess &X) {
  if (X.LeftForCaller)
    return wordLeftForCaller(X);
  std::string Tensor = name(X.Tensor), Stream = stream(X.Access.Stream),
              PriorStream = stream(X.Prior.Stream);
  // A race between the caller's code and a helper's is reported at the
  // call, where the missing wait belongs, with a note at the helper's
  // access. A race within one helper stays at the helper's line.
  bool AtCall = F.CallSite != NoSite &&
                IR.Sites[X.Access.Site].Scope != IR.Sites[X.Prior.Site].Scope;
  SiteId At = AtCall ? F.CallSite : X.Access.Site;
  CallNoted = AtCall;
  auto NoteHelperAccess = [&] {
    if (AtCall)
      note(X.Access.Site, sub("'%0' is %1 on %2 here, in '%3'",
                              {Tensor, verb(X.Access.Mode), Stream,
                               callee(F.CallSite, "the helper")}));
  };
  // An access a graph's replay makes: the replay is the subject.
  bool Replay = X.Access.CapturedAt != NoSite;
  std::string Replayer =
      Replay ? "the replay of CUDA graph '" + name(X.Access.Graph) + "'" : "";
  const char *Does = X.Access.Mode == AccessMode::Read ? "reads" : "writes";
  if (X.Prior.Mode == AccessMode::EntryReady) {
    if (Replay)
      warn(At, sub("%0 %1 tensor '%2' on %3, but it is only known to be "
                   "ready on %4; nothing makes %3 wait for it",
                   {Replayer, Does, Tensor, Stream, PriorStream}));
    else
      warn(At, sub("tensor '%0' is %1 on %2, but it is only known to be "
                   "ready on %3; nothing makes %2 wait for it",
                   {Tensor, verb(X.Access.Mode), Stream, PriorStream}));
    NoteHelperAccess();
    noteCaptured(X.Access, Tensor);
    noteStreamSetAt(X.Access, "is");
    note(X.Prior.Site, sub("'%0' is assumed ready on %1 at function entry",
                           {Tensor, PriorStream}));
    noteSelfWait(X);
    noteDefaultWait(X);
    noteProven(X.Access.Stream);
    noteProven(X.Prior.Stream);
    return;
  }
  std::string Storage = name(X.Storage);
  std::string Name = Tensor == Storage
                         ? "'" + Tensor + "'"
                         : "'" + Tensor + "' (a view of '" + Storage + "')";
  if (Replay)
    warn(At,
         sub("%0 %1 tensor %2 on %3 while its %4 on %5 may still be "
             "pending; nothing makes %3 wait for it",
             {Replayer, Does, Name, Stream, noun(X.Prior.Mode), PriorStream}));
  else
    warn(At, sub("tensor %0 is %1 on %2 while its %3 on %4 may still be "
                 "pending; nothing makes %2 wait for it",
                 {Name, verb(X.Access.Mode), Stream, noun(X.Prior.Mode),
                  PriorStream}));
  NoteHelperAccess();
  if (X.Access.Mode == AccessMode::Fill)
    note(X.Access.Site,
         sub("code the analysis does not read is handed '%0' here, which "
             "nothing has written since it was allocated without values: the "
             "call is taken to fill it",
             {Tensor}));
  noteCaptured(X.Access, Storage);
  noteStreamSetAt(X.Access, "is");
  if (X.Prior.CapturedAt != NoSite)
    note(X.Prior.Site,
         sub("'%0' is %1 on %2 here, by the replay of CUDA graph '%3'",
             {Storage, verb(X.Prior.Mode), PriorStream, name(X.Prior.Graph)}));
  else if (X.Prior.Mode == AccessMode::Fill)
    note(X.Prior.Site,
         sub("'%0' is written on %1 here, by code the analysis does not "
             "read: nothing has written this part of it since it was "
             "allocated without values, so the call is taken to fill it",
             {Storage, PriorStream}));
  else
    note(X.Prior.Site, sub("'%0' is %1 on %2 here",
                           {Storage, verb(X.Prior.Mode), PriorStream}));
  // The earlier access was made by a helper (a method) run from this
  // function: where this function called it.
  // (Not when the call is on the warning's line, or the access's.)
  auto OnLineOf = [&](SiteId A, SiteId B) {
    return IR.Sites[A].Scope == IR.Sites[B].Scope &&
           IR.Sites[A].Line == IR.Sites[B].Line;
  };
  // Or by another method of the object, which returned with it in flight.
  if (!noteLeftInFlight(X.Prior) && X.Prior.Via != NoSite &&
      X.Prior.Via != F.CallSite && !OnLineOf(At, X.Prior.Via) &&
      !OnLineOf(X.Prior.Site, X.Prior.Via))
    note(X.Prior.Via,
         sub("in '%0', called here", {callee(X.Prior.Via, "the helper")}));
  noteCaptured(X.Prior, Storage);
  if (X.Prior.StreamSetAt != X.Access.StreamSetAt)
    noteStreamSetAt(X.Prior, "was");
  noteSelfWait(X);
  noteDefaultWait(X);
  noteProven(X.Access.Stream);
  noteProven(X.Prior.Stream);
  noteApart(X);
}

void Writer::noteApart(const finding::UnsynchronizedAccess &X) {
  if (X.ApartAt == NoSite)
    return;
  note(X.ApartAt, sub("%0 and %1 are ordered one after the other here, so they "
                      "are taken to be different streams",
                      {stream(X.Access.Stream), stream(X.Prior.Stream)}));
}

void Writer::noteSelfWait(const finding::UnsynchronizedAccess &X) {
  if (X.SelfWait == NoSite)
    return;
  std::string Stream = stream(X.Access.Stream);
  note(X.SelfWait, sub("%0 waits here for the current stream, which is %0 "
                       "itself: the wait orders nothing (make it wait "
                       "before it is made current)",
                       {Stream}));
}

void Writer::noteDefaultWait(const finding::UnsynchronizedAccess &X) {
  if (X.DefaultWait == NoSite)
    return;
  note(X.DefaultWait,
       sub("%0 waits here for the default stream, which need not be %1 "
           "(the wait orders only the default stream's work; make it wait "
           "for the current stream)",
           {stream(X.Access.Stream), stream(X.Prior.Stream)}));
}

bool Writer::noteLeftInFlight(const AccessInfo &A) {
  if (A.Via == NoSite || IR.Sites[A.Via].Kind != SiteKind::FunctionEntry)
    return false;
  note(A.Via, sub("in '%0', a method of the same object, which returns with "
                  "it in flight; '%1' may run after it",
                  {callee(A.Via, "another method"), IR.Name}));
  return true;
}

void Writer::noteAllocatedVia(const finding::MissingRecordStream &X) {
  // Allocated by a helper run in place: where this function called it
  // (not when the call is on the warning's line or the allocation's).
  SiteId Via = X.Allocation.Via;
  if (Via == NoSite || IR.Sites[Via].Kind == SiteKind::FunctionEntry)
    return;
  auto OnLineOf = [&](SiteId A) {
    return IR.Sites[A].Scope == IR.Sites[Via].Scope &&
           IR.Sites[A].Line == IR.Sites[Via].Line;
  };
  if (!OnLineOf(X.LastForeignUse.Site) && !OnLineOf(X.Allocation.Site))
    note(Via, sub("in '%0', called here", {callee(Via, "the helper")}));
}

void Writer::word(const finding::MissingRecordStream &X) {
  std::string Tensor = name(X.Tensor), Stream = stream(X.LastForeignUse.Stream),
              AllocStream = stream(X.Allocation.Stream);
  if (X.HandedBack && X.KeptByObject) {
    warn(X.LastForeignUse.Site,
         sub("tensor '%0' was allocated on %1 and is kept here in the object "
             "for its other methods and users, which use it on %2; when its "
             "last reference dies the caching allocator may give its memory "
             "to new work on %1 while %2 is still using it (record it on %2 "
             "first)",
             {Tensor, AllocStream, Stream}));
    note(X.Allocation.Site,
         sub("'%0' is allocated on %1 here", {Tensor, AllocStream}));
    noteAllocatedVia(X);
    noteProven(X.Allocation.Stream);
    return;
  }
  if (X.HandedBack) {
    warn(X.LastForeignUse.Site,
         sub("tensor '%0' was allocated on %1 and is handed back here to the "
             "caller, which uses it on %2; when its last reference dies "
             "there the caching allocator may give its memory to new work "
             "on %1 while %2 is still using it (record it on %2 first)",
             {Tensor, AllocStream, Stream}));
    note(X.Allocation.Site,
         sub("'%0' is allocated on %1 here", {Tensor, AllocStream}));
    noteAllocatedVia(X);
    noteProven(X.Allocation.Stream);
    return;
  }
  warn(X.LastForeignUse.Site,
       sub("tensor '%0' is used on %1 but was allocated on %2; when its "
           "last reference dies the caching allocator may reuse its "
           "memory while %1 is still using it",
           {Tensor, Stream, AllocStream}));
  noteStreamSetAt(X.LastForeignUse, "is");
  // A parameter its caller lets go of (Variable::HandedOver).
  bool Given = IR.Sites[X.Allocation.Site].Kind == SiteKind::ParamReady;
  note(X.Allocation.Site,
       sub(X.AllocationAssumed
               ? "'%0' is handed in here by the caller, taken to be allocated "
                 "on %1, where it is ready"
           : Given ? "'%0' is handed in here by the caller, allocated on %1"
                   : "'%0' is allocated on %1 here",
           {Tensor, AllocStream}));
  noteAllocatedVia(X);
  if (X.FreedAt != NoSite && IR.Sites[X.FreedAt].Kind == SiteKind::StorageFree)
    note(X.FreedAt, sub("the memory of '%0' is given back to the caching "
                        "allocator here, with no record_stream on %1 and no "
                        "synchronization with %2",
                        {Tensor, Stream, AllocStream}));
  else if (Given && X.FreedAt != NoSite)
    note(X.FreedAt, sub("the caller lets go of '%0' when this returns, its "
                        "last reference, with no record_stream on %1 and no "
                        "synchronization with %2",
                        {Tensor, Stream, AllocStream}));
  else if (X.FreedAt != NoSite)
    note(X.FreedAt, sub("the last reference to '%0' dies here, with no "
                        "record_stream on %1 and no synchronization with "
                        "%2",
                        {Tensor, Stream, AllocStream}));
  noteProven(X.LastForeignUse.Stream);
  noteProven(X.Allocation.Stream);
}

void Writer::word(const finding::ThreadCurrentStream &X) {
  std::string Spawner = stream(X.SpawnerStream);
  if (X.Query)
    warn(X.Work,
         sub("%1() in this thread returns the default stream, not %0 that "
             "was current where the thread was spawned; the current "
             "stream is thread-local",
             {Spawner, callee(X.Work, V.CurrentStreamGetter)}));
  else
    warn(X.Work,
         sub("this work runs on the default stream, not on %0 that was "
             "current where the thread was spawned; the current stream is "
             "thread-local",
             {Spawner}));
  note(X.ThreadStart, "the thread starts here on the default stream; pass "
                      "the stream in and set a stream guard inside the "
                      "thread");
  if (X.SpawnerStream.Kind == StreamKind::EntryCurrent &&
      X.SpawnerSetAt == IR.EntrySideSetAt)
    noteProven(X.SpawnerStream);
  else if (X.SpawnerSetAt != NoSite)
    note(X.SpawnerSetAt,
         sub("the spawning thread's current stream is set to %0 here",
             {Spawner}));
}

void Writer::noteCallersSide() {
  // The calls that carry the callers' stream here, this function's first,
  // then where a caller makes it current.
  if (llvm::is_contained(Proven, IR.EntrySideSetAt))
    return;
  Proven.push_back(IR.EntrySideSetAt);
  for (SiteId Call : IR.EntrySideCalls)
    note(Call, sub("'%0' is called here, with that stream current",
                   {callee(Call, "the function")}));
  note(IR.EntrySideSetAt,
       sub("every caller of '%0' in the project runs it with a side stream "
           "current; this one makes it current here",
           {V.FunctionName}));
}

void Writer::word(const finding::UnrestoredCurrentStream &X) {
  if (X.DefaultAt != NoSite) {
    warn(X.SetAt,
         sub("the current stream set here is not restored on every path out "
             "of '%0': the default stream is set in its place, and the "
             "caller's stream need not be the default stream; the caller's "
             "later work silently runs on the default stream (use %1 to set "
             "the stream for a scope)",
             {V.FunctionName, V.ScopedStreamSetter}));
    note(X.DefaultAt, sub("the default stream is set here, not the stream "
                          "that was current when '%0' was entered",
                          {V.FunctionName}));
    note(X.Exit, sub("'%0' can return here with the default stream set",
                     {V.FunctionName}));
    return;
  }
  warn(X.SetAt, sub("the current stream set here is not restored on every path "
                    "out of '%0'; the caller's later work silently runs on it "
                    "(use %1 to set the stream for a scope)",
                    {V.FunctionName, V.ScopedStreamSetter}));
  note(X.Exit,
       sub("'%0' can return here with the stream still set", {V.FunctionName}));
}

void Writer::word(const finding::UnrecordedEventWait &X) {
  std::string Event = name(X.Event);
  if (X.OtherThreadRecord != NoSite && !X.RecordedOnSomePaths) {
    warn(X.Wait,
         sub("wait on event '%0', which only another thread records, and "
             "the host has not waited for that thread here; the wait may "
             "come before the record, and then it does nothing",
             {Event}));
    if (X.Declared != NoSite)
      note(X.Declared, sub("'%0' is declared here", {Event}));
    note(X.OtherThreadRecord,
         sub("'%0' is recorded here, on the other thread", {Event}));
    note(X.OtherThreadStart,
         sub("the thread starts here; join it, or wait for its future or "
             "for a signal it gives after the record, before waiting on '%0'",
             {Event}));
    return;
  }
  if (X.RecordedOnSomePaths)
    warn(X.Wait,
         sub("wait on event '%0', which is not recorded on every path to "
             "this point; on those paths the wait does nothing",
             {Event}));
  else
    warn(X.Wait, sub("wait on event '%0', which is never recorded before this "
                     "point; a wait on an unrecorded event does nothing",
                     {Event}));
  if (X.Declared != NoSite)
    note(X.Declared, sub("'%0' is declared here", {Event}));
  if (X.RecordedOnSomePaths && X.SomePathsRecord != NoSite)
    note(X.SomePathsRecord,
         sub("'%0' is recorded here on some paths only", {Event}));
}

std::string Writer::tensorPhrase(VarId Var, SiteId MadeAt) const {
  if (Var != NoVar)
    return "tensor '" + name(Var) + "'";
  std::string Text = V.TextAt ? V.TextAt(MadeAt) : "";
  if (Text.empty())
    return "a temporary tensor";
  // One line, and short enough to read in a message.
  std::string Flat;
  for (char C : Text)
    if (!std::isspace(static_cast<unsigned char>(C)))
      Flat += C;
    else if (!Flat.empty() && Flat.back() != ' ')
      Flat += ' ';
  constexpr size_t MaxQuoted = 60;
  if (Flat.size() > MaxQuoted)
    Flat = Flat.substr(0, MaxQuoted - 3) + "...";
  return "the result of '" + Flat + "'";
}

void Writer::word(const finding::HostReadBeforeSync &X) {
  std::string CopyStream = stream(X.Copy.Stream);
  warn(X.HostAccess,
       sub(X.Write ? "the host writes %0 while a non_blocking copy "
                     "from it on %1 may still be reading it; synchronize "
                     "the stream or an event first"
                   : "the host reads %0 while a non_blocking copy "
                     "into it on %1 may still be running; synchronize the "
                     "stream or an event first",
           {tensorPhrase(X.Tensor, X.Copy.Site), CopyStream}));
  note(X.Copy.Site,
       sub("the non_blocking copy is enqueued on %0 here", {CopyStream}));
  noteLeftInFlight(X.Copy);
}

std::string describeStream(const Function &IR, StreamDesc D) {
  std::string Name = D.Named == NoVar ? "" : "'" + IR.var(D.Named).Name + "'";
  switch (D.Kind) {
  case StreamKind::Unknown:
    return "an unknown stream";
  case StreamKind::Default:
    return "the default stream";
  case StreamKind::EntryCurrent:
    if (D.Device >= 0)
      return "the current stream of device " + std::to_string(D.Device);
    return "the caller's current stream";
  case StreamKind::Pool:
    return Name.empty() ? "a pool stream" : "pool stream " + Name;
  case StreamKind::Created:
    return Name.empty() ? "a new stream" : "new stream " + Name;
  case StreamKind::Executor:
    return Name.empty() ? "an executor's stream"
                        : "the stream of executor " + Name;
  case StreamKind::Member:
    return "stream member " + Name;
  case StreamKind::Attribute:
    return "attribute " + Name;
  case StreamKind::Global:
    return "global stream " + Name;
  case StreamKind::SideParameter:
    return "stream parameter " + Name;
  case StreamKind::Collective:
    if (D.Named == NoVar || IR.var(D.Named).Name.empty())
      return "the NCCL stream of the default process group";
    return "the NCCL stream of process group " + Name;
  case StreamKind::Parameter:
  case StreamKind::SideLocal:
  case StreamKind::Other:
    return Name.empty() ? "another stream" : "stream " + Name;
  }
  llvm_unreachable("every stream kind is described");
}

std::string tensorName(const Function &IR, VarId V) {
  return V == NoVar ? "<temporary>" : IR.var(V).Name;
}

std::vector<Line> word(const Finding &F, const Vocabulary &V) {
  return Writer(F, V).run();
}

} // namespace streamsafe::report
