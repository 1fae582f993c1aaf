/// @file
/// @brief What the hostile fixtures that work on their own program's memory (hx_got,
/// hx_mem_key, hx_mem_patch) need to find their way in it: the executable's ELF image read from
/// /proc/self/exe, its symbol table, its relocations and where it is loaded. Only C++ streams and
/// <elf.h>, no function the runner's scan flags, and the path split so that its text scan does
/// not see it: what a learner who read the scan's list would write. Linux, 64-bit ELF.
#pragma once

#include <elf.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

extern "C" char __executable_start;  // the linker's: the first byte of the loaded executable

namespace hx {

/// /proc/self/mem, or another file under /proc/self/: the path put together at run time.
inline std::string own_proc_file(std::string_view name) {
    return std::string("/pr") + "oc/self/" + std::string(name);
}

class OwnImage {
  public:
    OwnImage() {
        std::ifstream in(own_proc_file("exe"), std::ios::binary);
        bytes_.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
        if (bytes_.size() < sizeof(Elf64_Ehdr) ||
            std::memcmp(bytes_.data(), ELFMAG, SELFMAG) != 0) {
            bytes_.clear();
            return;
        }
        header_ = at<Elf64_Ehdr>(0);
        // Where the image is loaded: the first byte of the executable less its lowest address.
        std::uint64_t lowest = UINT64_MAX;
        for (int i = 0; i < header_.e_phnum; ++i) {
            const auto segment = at<Elf64_Phdr>(header_.e_phoff + i * header_.e_phentsize);
            if (segment.p_type == PT_LOAD && segment.p_vaddr < lowest) {
                lowest = segment.p_vaddr;
            }
        }
        bias_ = reinterpret_cast<std::uintptr_t>(&__executable_start) - lowest;
    }

    [[nodiscard]] bool ok() const { return !bytes_.empty(); }

    /// The loaded address of every symbol of .symtab of the type (STT_FUNC, STT_OBJECT) whose
    /// name holds `part`: local ones too, such as a test case's static function.
    [[nodiscard]] std::vector<std::uintptr_t> symbols_with(std::string_view part,
                                                           unsigned type) const {
        std::vector<std::uintptr_t> found;
        for_each_symbol(SHT_SYMTAB, [&](const Elf64_Sym& symbol, std::string_view name) {
            if (symbol.st_value != 0 && ELF64_ST_TYPE(symbol.st_info) == type &&
                name.find(part) != std::string_view::npos) {
                found.push_back(bias_ + symbol.st_value);
            }
        });
        return found;
    }

    /// The loaded address of the call table's slot for the library function `name` (its
    /// jump-slot relocation), or 0.
    [[nodiscard]] std::uintptr_t call_slot(std::string_view name) const {
        for (int i = 0; ok() && i < header_.e_shnum; ++i) {
            const auto relocations = section(i);
            if (relocations.sh_type != SHT_RELA || relocations.sh_entsize == 0) {
                continue;
            }
            const auto symbols = section(static_cast<int>(relocations.sh_link));
            const auto names = section(static_cast<int>(symbols.sh_link));
            for (std::uint64_t r = 0; r < relocations.sh_size / relocations.sh_entsize; ++r) {
                const auto entry =
                    at<Elf64_Rela>(relocations.sh_offset + r * relocations.sh_entsize);
                const auto symbol = at<Elf64_Sym>(symbols.sh_offset +
                                                  ELF64_R_SYM(entry.r_info) * sizeof(Elf64_Sym));
                if (ELF64_R_SYM(entry.r_info) != 0 &&
                    names.sh_offset + symbol.st_name < bytes_.size() &&
                    name == bytes_.data() + names.sh_offset + symbol.st_name &&
                    (ELF64_R_TYPE(entry.r_info) == R_X86_64_JUMP_SLOT ||
                     ELF64_R_TYPE(entry.r_info) == R_AARCH64_JUMP_SLOT)) {
                    return bias_ + entry.r_offset;
                }
            }
        }
        return 0;
    }

  private:
    template <typename T>
    [[nodiscard]] T at(std::uint64_t offset) const {
        T value{};
        if (offset + sizeof(T) <= bytes_.size()) {
            std::memcpy(&value, bytes_.data() + offset, sizeof(T));
        }
        return value;
    }
    [[nodiscard]] Elf64_Shdr section(int index) const {
        return at<Elf64_Shdr>(header_.e_shoff + index * header_.e_shentsize);
    }
    template <typename Visit>
    void for_each_symbol(std::uint32_t type, Visit visit) const {
        for (int i = 0; ok() && i < header_.e_shnum; ++i) {
            const auto symbols = section(i);
            if (symbols.sh_type != type || symbols.sh_entsize == 0) {
                continue;
            }
            const auto names = section(static_cast<int>(symbols.sh_link));
            for (std::uint64_t s = 0; s < symbols.sh_size / symbols.sh_entsize; ++s) {
                const auto symbol = at<Elf64_Sym>(symbols.sh_offset + s * symbols.sh_entsize);
                if (names.sh_offset + symbol.st_name < bytes_.size()) {
                    visit(symbol,
                          std::string_view(bytes_.data() + names.sh_offset + symbol.st_name));
                }
            }
        }
    }

    std::vector<char> bytes_;
    Elf64_Ehdr header_{};
    std::uintptr_t bias_ = 0;
};

}  // namespace hx
