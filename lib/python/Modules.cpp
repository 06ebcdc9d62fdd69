//===--- Modules.cpp - Helpers in other modules of the project ------------===//

#include "lib/python/Modules.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

namespace streamsafe::py {

namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

static std::string realPath(llvm::StringRef P) {
  llvm::SmallString<256> Out;
  if (fs::real_path(P, Out))
    return "";
  return std::string(Out);
}

/// `a/b/c.py` or `a/b/c/__init__.py` under \p Dir for the dotted \p Rest
/// ("" : the package \p Dir itself).
static std::string moduleFile(llvm::StringRef Dir, llvm::StringRef Rest) {
  llvm::SmallString<256> Base(Dir);
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  Rest.split(Parts, '.', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef P : Parts)
    path::append(Base, P);
  llvm::SmallString<256> File(Base);
  if (!Parts.empty()) {
    File += ".py";
    if (fs::is_regular_file(File))
      return std::string(File);
  }
  File = Base;
  path::append(File, "__init__.py");
  return fs::is_regular_file(File) ? std::string(File) : std::string();
}

std::string ModuleCache::pathOf(const SourceFile &From,
                                llvm::StringRef Dotted) const {
  llvm::SmallString<256> Dir(From.path());
  fs::make_absolute(Dir);
  path::remove_filename(Dir);
  if (Dotted.starts_with(".")) {
    // `from ..a import f`: one folder up per dot after the first.
    size_t Dots = Dotted.find_first_not_of('.');
    if (Dots == llvm::StringRef::npos)
      Dots = Dotted.size();
    for (size_t K = 1; K < Dots; ++K)
      path::remove_filename(Dir);
    return moduleFile(Dir, Dotted.drop_front(Dots));
  }
  return moduleFile(rootOf(From), Dotted);
}

std::string ModuleCache::rootOf(const SourceFile &From) const {
  // As given, or the nearest folder above the file with no __init__.py
  // (the folder the file's package hangs from).
  llvm::SmallString<256> Top(Root);
  if (Top.empty()) {
    Top = From.path();
    fs::make_absolute(Top);
    path::remove_filename(Top);
    for (unsigned K = 0; K < 64 && !Top.empty(); ++K) {
      llvm::SmallString<256> Init(Top);
      path::append(Init, "__init__.py");
      if (!fs::is_regular_file(Init))
        break;
      llvm::StringRef Up = path::parent_path(Top);
      if (Up == Top)
        break;
      Top = Up;
    }
  }
  return std::string(Top);
}

const ProjectModule *ModuleCache::load(const std::string &Path) {
  auto [It, New] = Loaded.try_emplace(Path);
  if (!New)
    return It->second.get();
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer || (*Buffer)->getBufferSize() > MaxModuleBytes)
    return nullptr;
  auto M = std::make_unique<ProjectModule>();
  M->F = std::make_unique<SourceFile>(Path, (*Buffer)->getBuffer().str());
  Position Error;
  if (!M->F->parse() || M->F->firstError(Error))
    return nullptr; // not valid Python as far as the grammar goes: not seen
  M->I = std::make_unique<Imports>(*M->F, DeviceModules);
  M->X = std::make_unique<HelperIndex>(*M->F, *M->I);
  M->S = makeScope(M->F->root(), Scope::Module, nullptr, *M->F, *M->I);
  It->second = std::move(M);
  return It->second.get();
}

const ProjectModule *ModuleCache::moduleNaming(const SourceFile &From,
                                               llvm::StringRef Qualified,
                                               llvm::StringRef &Name) {
  auto [Dotted, Last] = Qualified.rsplit('.');
  Name = Last;
  if (Name.empty() || Dotted.empty() || Dotted == Qualified)
    return nullptr;
  // Asked at every call of a name the analysis does not know: the file
  // lookups once per importing file and module name.
  std::string Key = From.path() + "\n" + Dotted.str();
  auto [It, New] = Named.try_emplace(Key);
  if (New) {
    std::string File = pathOf(From, Dotted);
    std::string Real = File.empty() ? std::string() : realPath(File);
    if (!Real.empty() && Real != realPath(From.path()))
      It->second = Real;
  }
  return It->second.empty() ? nullptr : load(It->second);
}

/// How many modules a name may be re-exported through (`pkg/__init__.py`
/// importing it from `pkg/store.py`, and so on); also ends import cycles.
static constexpr unsigned MaxReexports = 4;

TSNode ModuleCache::find(const SourceFile &From, llvm::StringRef Qualified,
                         bool Class, const ProjectModule *&Module) {
  Module = nullptr;
  const SourceFile *At = &From;
  std::string Path = Qualified.str();
  for (unsigned Hop = 0; Hop <= MaxReexports; ++Hop) {
    llvm::StringRef Name;
    const ProjectModule *M = moduleNaming(*At, Path, Name);
    if (!M)
      return {};
    TSNode Found{};
    if (!Class) {
      if (auto It = M->S->Defs.find(Name); It != M->S->Defs.end())
        Found = It->second;
    } else {
      Found = M->X->moduleClass(Name);
    }
    if (!ts_node_is_null(Found)) {
      Module = M;
      return Found;
    }
    // Not defined there: a name the module imports is what it imports.
    std::string Via = M->I->importedAs(Name);
    if (Via.empty() || M->S->Defs.count(Name))
      return {};
    At = M->F.get();
    Path = std::move(Via);
  }
  return {};
}

TSNode ModuleCache::def(const SourceFile &From, llvm::StringRef Qualified,
                        const ProjectModule *&Module) {
  return find(From, Qualified, /*Class=*/false, Module);
}

TSNode ModuleCache::moduleClass(const SourceFile &From,
                                llvm::StringRef Qualified,
                                const ProjectModule *&Module) {
  return find(From, Qualified, /*Class=*/true, Module);
}

const ProjectModule *ModuleCache::moduleOf(TSNode N) const {
  for (const auto &E : Loaded)
    if (E.second && E.second->F->owns(N))
      return E.second.get();
  return nullptr;
}

} // namespace streamsafe::py
