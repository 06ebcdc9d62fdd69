//===--- ProjectCalls.cpp - Which methods the project calls on others -----===//
//
// A method only its own class calls (`self.copy_grads(p)` in another
// method, under the stream that method chose) is a helper of the class:
// what it leaves in the object's fields when it returns is not a state the
// class's users see. Python says nothing of who may call a method; the
// project's code does. Every file of the project is read once per run and
// each `x.name(` whose receiver is not `self` (or `super()`) marks `name`
// as called on other objects. Text, not syntax: a call in a comment or a
// string counts too, which only keeps a method an entry point.
//
//===----------------------------------------------------------------------===//

#include "lib/python/Modules.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

namespace streamsafe::py {

namespace {

/// Files read past this are not scanned (a generated tree, a vendored
/// copy of a library): the project stays as far as it was read.
constexpr unsigned MaxProjectFiles = 20000;

bool identifierChar(char C) {
  return (C >= 'a' && C <= 'z') || (C >= 'A' && C <= 'Z') ||
         (C >= '0' && C <= '9') || C == '_';
}

/// Whether the receiver that ends at \p End (exclusive) in \p Text is the
/// object itself: `self` or `super()`.
bool ownReceiver(llvm::StringRef Text, size_t End) {
  llvm::StringRef Before = Text.take_front(End).rtrim(" \t");
  for (llvm::StringRef Own : {"self", "super()"})
    if (Before.ends_with(Own) &&
        (Before.size() == Own.size() ||
         !identifierChar(Before[Before.size() - Own.size() - 1])))
      return true;
  return false;
}

void scanCalls(llvm::StringRef Text, llvm::StringSet<> &Others) {
  for (size_t Dot = Text.find('.'); Dot != llvm::StringRef::npos;
       Dot = Text.find('.', Dot + 1)) {
    size_t End = Dot + 1;
    while (End < Text.size() && identifierChar(Text[End]))
      ++End;
    if (End == Dot + 1)
      continue;
    size_t Paren = End;
    while (Paren < Text.size() && (Text[Paren] == ' ' || Text[Paren] == '\t'))
      ++Paren;
    if (Paren < Text.size() && Text[Paren] == '(' && !ownReceiver(Text, Dot))
      Others.insert(Text.slice(Dot + 1, End));
  }
}

} // namespace

std::vector<size_t> wordOffsets(llvm::StringRef Text, llvm::StringRef Word) {
  std::vector<size_t> Out;
  for (size_t At = Text.find(Word); At != llvm::StringRef::npos;
       At = Text.find(Word, At + 1)) {
    size_t End = At + Word.size();
    if ((At == 0 || !identifierChar(Text[At - 1])) &&
        (End == Text.size() || !identifierChar(Text[End])))
      Out.push_back(At);
  }
  return Out;
}

const std::vector<std::string> &
ModuleCache::projectFiles(const SourceFile &From) {
  namespace fs = llvm::sys::fs;
  std::string Top = rootOf(From);
  auto [It, New] = Files.try_emplace(Top);
  if (!New)
    return It->second;
  std::error_code EC;
  for (fs::recursive_directory_iterator D(Top, EC), End;
       D != End && !EC && It->second.size() < MaxProjectFiles;
       D.increment(EC)) {
    llvm::StringRef P = D->path();
    if (llvm::sys::path::filename(P).starts_with(".")) {
      D.no_push(); // .git, .tox, .venv: not the project's code
      continue;
    }
    if (P.ends_with(".py"))
      It->second.push_back(P.str());
  }
  return It->second;
}

const std::vector<std::string> &ModuleCache::filesNaming(const SourceFile &From,
                                                         llvm::StringRef Name) {
  std::string Key = rootOf(From) + "\n" + Name.str();
  if (auto It = Naming.find(Key); It != Naming.end())
    return It->second;
  std::vector<std::string> Found;
  for (const std::string &P : projectFiles(From)) {
    auto Buffer = llvm::MemoryBuffer::getFile(P);
    if (!Buffer || (*Buffer)->getBufferSize() > MaxModuleBytes)
      continue;
    if (!wordOffsets((*Buffer)->getBuffer(), Name).empty())
      Found.push_back(P);
  }
  return Naming[Key] = std::move(Found);
}

bool ModuleCache::calledOnOthers(const SourceFile &From, llvm::StringRef Name) {
  std::string Top = rootOf(From);
  auto [It, New] = OthersCalls.try_emplace(Top);
  if (New) {
    for (const std::string &P : projectFiles(From)) {
      auto Buffer = llvm::MemoryBuffer::getFile(P);
      if (Buffer && (*Buffer)->getBufferSize() <= MaxModuleBytes)
        scanCalls((*Buffer)->getBuffer(), It->second);
    }
    // The analysed file as the editor holds it.
    scanCalls(From.text(), It->second);
  }
  return It->second.contains(Name);
}

} // namespace streamsafe::py
