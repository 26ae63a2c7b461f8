/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _LIB_DWARF_FORM_H_
#define _LIB_DWARF_FORM_H_ 1

/* The sizes of DWARF forms (DWARF 5, 7.5.6), as the hand-made readers take them. */
#include <stdint.h>
#include <dwarf.h>

#define DWARF_FORM_VARIES UINT8_MAX

/*
 * The size of every value of @form in a unit of @addr_size, @offset_size
 * and DWARF @version, or DWARF_FORM_VARIES when the value's bytes say (or
 * the form is not one sized here).
 */
static inline uint8_t dwarf_form__fixed_size(unsigned int form, uint8_t addr_size,
					     uint8_t offset_size, uint16_t version)
{
	switch (form) {
	case DW_FORM_flag_present:
	case DW_FORM_implicit_const:
		return 0;
	case DW_FORM_data1:
	case DW_FORM_ref1:
	case DW_FORM_flag:
	case DW_FORM_strx1:
	case DW_FORM_addrx1:
		return 1;
	case DW_FORM_data2:
	case DW_FORM_ref2:
	case DW_FORM_strx2:
	case DW_FORM_addrx2:
		return 2;
	case DW_FORM_strx3:
	case DW_FORM_addrx3:
		return 3;
	case DW_FORM_data4:
	case DW_FORM_ref4:
	case DW_FORM_ref_sup4:
	case DW_FORM_strx4:
	case DW_FORM_addrx4:
		return 4;
	case DW_FORM_data8:
	case DW_FORM_ref8:
	case DW_FORM_ref_sig8:
	case DW_FORM_ref_sup8:
		return 8;
	case DW_FORM_data16:
		return 16;
	case DW_FORM_addr:
		return addr_size;
	case DW_FORM_ref_addr:
		return version < 3 ? addr_size : offset_size;
	case DW_FORM_strp:
	case DW_FORM_line_strp:
	case DW_FORM_sec_offset:
	case DW_FORM_strp_sup:
	case DW_FORM_GNU_strp_alt:
		return offset_size;
	default:
		return DWARF_FORM_VARIES;
	}
}

#endif /* _LIB_DWARF_FORM_H_ */
