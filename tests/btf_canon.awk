# tests/btf_canon.awk: canonical lines of BTF, from `bpftool btf dump file F
# format raw` on stdin, one per type, unsorted (tests/lib.sh's
# btf_canon_bpftool sorts them): the lines ../shared/tools/btfcanon gives,
# for when it is not there.  Each line is a type's kind and name, a tab,
# and its definition with every type it refers to spelled out inline.
function unq(s) { return s == "(anon)" ? "" : s }
# attr(s, key): the value of key=value in s, or "".
function attr(s, key,   n, i, parts, kv) {
	n = split(s, parts, " ")
	for (i = 1; i <= n; i++) {
		kv = parts[i]
		sub(/,$/, "", kv)
		if (index(kv, key "=") == 1)
			return substr(kv, length(key) + 2)
	}
	return ""
}
# quoted(s): the text between the first pair of single quotes.
function quoted(s,   a, b) {
	a = index(s, "\047")
	b = index(substr(s, a + 1), "\047")
	return substr(s, a + 1, b - 1)
}
function after_quoted(s,   a, b) {
	a = index(s, "\047")
	b = index(substr(s, a + 1), "\047")
	return substr(s, a + b + 1)
}
/^\[[0-9]+\] / {
	id = substr($1, 2, length($1) - 2) + 0
	cur = id
	if (id > maxid)
		maxid = id
	K[id] = $2
	N[id] = unq(quoted($0))
	rest = after_quoted($0)
	T[id] = attr(rest, "type_id")
	SZ[id] = attr(rest, "size")
	V[id] = 0
	KF[id] = 0
	if ($2 == "INT") {
		e = attr(rest, "encoding")
		enc = e == "(none)" ? 0 : e == "SIGNED" ? 1 : e == "CHAR" ? 2 : e == "BOOL" ? 4 : "?"
		X[id] = "size=" SZ[id] " enc=" enc " off=" attr(rest, "bits_offset") " bits=" attr(rest, "nr_bits")
	} else if ($2 == "ARRAY") {
		X[id] = attr(rest, "index_type_id")
		NE[id] = attr(rest, "nr_elems")
	} else if ($2 == "ENUM" || $2 == "ENUM64") {
		KF[id] = attr(rest, "encoding") == "SIGNED"
	} else if ($2 == "FWD") {
		KF[id] = attr(rest, "fwd_kind") == "union"
	} else if ($2 == "FUNC_PROTO") {
		T[id] = attr(rest, "ret_type_id")
	} else if ($2 == "FUNC" || $2 == "VAR") {
		l = attr(rest, "linkage")
		X[id] = l == "static" ? 0 : l == "global" ? 1 : l == "extern" ? 2 : l
	} else if ($2 == "DECL_TAG") {
		X[id] = attr(rest, "component_idx")
	}
	next
}
/^\t/ {
	i = ++V[cur]
	k = K[cur]
	if (k == "STRUCT" || k == "UNION") {
		MN[cur, i] = unq(quoted($0))
		rest = after_quoted($0)
		MT[cur, i] = attr(rest, "type_id")
		MO[cur, i] = attr(rest, "bits_offset")
		MB[cur, i] = attr(rest, "bitfield_size")
		if (MB[cur, i] == "")
			MB[cur, i] = 0
		else
			KF[cur] = 1
	} else if (k == "ENUM" || k == "ENUM64") {
		MN[cur, i] = unq(quoted($0))
		v = attr(after_quoted($0), "val")
		sub(/U?LL$/, "", v)
		MO[cur, i] = v
	} else if (k == "FUNC_PROTO") {
		MN[cur, i] = unq(quoted($0))
		MT[cur, i] = attr(after_quoted($0), "type_id")
	} else if (k == "DATASEC") {
		MT[cur, i] = attr($0, "type_id")
		MO[cur, i] = attr($0, "offset")
		MB[cur, i] = attr($0, "size")
	}
	next
}
function ref(t,   r) {
	if (t in REF)
		return REF[t]
	REF[t] = "<cycle " t ">"
	r = spell_ref(t)
	REF[t] = r
	return r
}
function spell_ref(t,   k) {
	if (t == 0)
		return "void"
	if (!(t in K))
		return "<bad id " t ">"
	k = K[t]
	if ((k == "STRUCT" || k == "UNION" || k == "ENUM" || k == "ENUM64") && N[t] != "")
		return tolower(k) " " N[t]
	if (k == "TYPEDEF")
		return "typedef " N[t]
	if (k == "FWD")
		return "fwd " (KF[t] ? "union" : "struct") " " N[t]
	if (k == "FUNC")
		return "func " N[t]
	if (k == "VAR")
		return "var " N[t]
	if (k == "DATASEC")
		return "datasec " N[t]
	return define(t)
}
function define(t,   k, s, i, j, n, o, tmp) {
	if (t == 0)
		return "void"
	k = K[t]
	if (k == "INT")
		return "int " N[t] " " X[t]
	if (k == "FLOAT")
		return "float " N[t] " size=" SZ[t]
	if (k == "PTR" || k == "VOLATILE" || k == "CONST" || k == "RESTRICT")
		return tolower(k) "(" ref(T[t]) ")"
	if (k == "TYPE_TAG")
		return "type_tag " N[t] "(" ref(T[t]) ")"
	if (k == "ARRAY")
		return "array[" NE[t] "] of " ref(T[t]) " idx " ref(X[t])
	if (k == "STRUCT" || k == "UNION") {
		s = ""
		for (i = 1; i <= V[t]; i++) {
			s = s (i > 1 ? "; " : "") MN[t, i] "@" MO[t, i] ":"
			if (KF[t])
				s = s MB[t, i] ":"
			s = s ref(MT[t, i])
		}
		return tolower(k) " " N[t] " size=" SZ[t] " {" s "}"
	}
	if (k == "ENUM" || k == "ENUM64") {
		s = ""
		for (i = 1; i <= V[t]; i++)
			s = s (i > 1 ? "," : "") MN[t, i] "=" MO[t, i]
		return tolower(k) " " N[t] " size=" SZ[t] " signed=" KF[t] " {" s "}"
	}
	if (k == "FWD")
		return "fwd " (KF[t] ? "union" : "struct") " " N[t]
	if (k == "TYPEDEF")
		return "typedef " N[t] " = " ref(T[t])
	if (k == "FUNC_PROTO") {
		s = ""
		for (i = 1; i <= V[t]; i++)
			s = s (i > 1 ? ", " : "") (MT[t, i] == 0 ? "..." : MN[t, i] ":" ref(MT[t, i]))
		return "fn(" s ") -> " ref(T[t])
	}
	if (k == "FUNC")
		return "func " N[t] " linkage=" X[t] " " ref(T[t])
	if (k == "VAR")
		return "var " N[t] " linkage=" X[t] " " ref(T[t])
	if (k == "DATASEC") {
		# members sorted by (offset, size, name)
		n = V[t]
		for (i = 1; i <= n; i++)
			o[i] = i
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && ds_less(t, o[j], o[j - 1]); j--) {
				tmp = o[j]; o[j] = o[j - 1]; o[j - 1] = tmp
			}
		s = ""
		for (i = 1; i <= n; i++)
			s = s (i > 1 ? "; " : "") N[MT[t, o[i]]] "@" MO[t, o[i]] ":" MB[t, o[i]]
		return "datasec " N[t] " size=" SZ[t] " {" s "}"
	}
	if (k == "DECL_TAG")
		return "decl_tag " N[t] " idx=" X[t] " on " ref(T[t])
	return k " " N[t]
}
function ds_less(t, a, b) {
	if (MO[t, a] + 0 != MO[t, b] + 0)
		return MO[t, a] + 0 < MO[t, b] + 0
	if (MB[t, a] + 0 != MB[t, b] + 0)
		return MB[t, a] + 0 < MB[t, b] + 0
	return N[MT[t, a]] < N[MT[t, b]]
}
END {
	for (t = 1; t <= maxid; t++)
		if (t in K)
			print K[t] "\t" define(t)
}
