//go:build amd64 && !purego

#include "textflag.h"

// The lanes are two vectors of four: lanes 0-3 at k+off, 4-7 at k+off+32
// bytes, each with its own sum, so that two additions are in flight.

// The first option of a group into Y0 (lanes 0-3) and Y4 (4-7), the max
// with another, and the group's probability times the max added to the
// sums Y2, Y3 (then the next probability).
#define FIRST(r) VMOVUPD (BX)(r*8), Y0; VMOVUPD 32(BX)(r*8), Y4
#define MAXOF(r) VMAXPD (BX)(r*8), Y0, Y0; VMAXPD 32(BX)(r*8), Y4, Y4
#define ADDUP VBROADCASTSD (SI), Y1; VMULPD Y0, Y1, Y0; VMULPD Y4, Y1, Y4; VADDPD Y0, Y2, Y2; VADDPD Y4, Y3, Y3; ADDQ $8, SI
// Two offsets at once: the one at o into AX, the next into R9.
#define PAIR(o) MOVQ o(DI), R9; MOVL R9, AX; SHRQ $32, R9

// func sumLanesAVX2(hdr *int64, nb int, prob *float64, off *int32, k *float64, acc *[8]float64)
//
// For each of the nb blocks (hdr: option count and number of groups, both
// > 0) and each of its groups: the lane-wise maximum of the group's vectors
// of values at k+off (off in float64s, below 2^31), times the group's
// probability, added to acc. Multiply, then add, in the order of the
// groups: the same roundings as sumLanesGo. Offsets are read two at a time
// (a load less an option: the loads are the bound).
TEXT ·sumLanesAVX2(SB), NOSPLIT, $0-48
	MOVQ hdr+0(FP), R12
	MOVQ nb+8(FP), R13
	MOVQ prob+16(FP), SI
	MOVQ off+24(FP), DI
	MOVQ k+32(FP), BX
	MOVQ acc+40(FP), R8
	VMOVUPD (R8), Y2
	VMOVUPD 32(R8), Y3

block:
	MOVQ (R12), DX
	MOVQ 8(R12), CX
	ADDQ $16, R12
	CMPQ DX, $1
	JEQ one
	CMPQ DX, $2
	JEQ two
	CMPQ DX, $3
	JEQ three
	CMPQ DX, $4
	JEQ four
	CMPQ DX, $5
	JEQ five
	CMPQ DX, $6
	JEQ six
	MOVQ DX, R11
	DECQ R11

gen:
	MOVLQSX (DI), AX
	FIRST(AX)
	ADDQ $4, DI
	MOVQ R11, R10

genin:
	MOVLQSX (DI), AX
	MAXOF(AX)
	ADDQ $4, DI
	DECQ R10
	JNZ genin
	ADDUP
	DECQ CX
	JNZ gen
	JMP next

one:
	MOVLQSX (DI), AX
	VBROADCASTSD (SI), Y1
	VMULPD (BX)(AX*8), Y1, Y0
	VMULPD 32(BX)(AX*8), Y1, Y4
	VADDPD Y0, Y2, Y2
	VADDPD Y4, Y3, Y3
	ADDQ $4, DI
	ADDQ $8, SI
	DECQ CX
	JNZ one
	JMP next

two:
	PAIR(0)
	FIRST(AX)
	MAXOF(R9)
	ADDUP
	ADDQ $8, DI
	DECQ CX
	JNZ two
	JMP next

three:
	PAIR(0)
	FIRST(AX)
	MAXOF(R9)
	MOVLQSX 8(DI), AX
	MAXOF(AX)
	ADDUP
	ADDQ $12, DI
	DECQ CX
	JNZ three
	JMP next

four:
	PAIR(0)
	FIRST(AX)
	MAXOF(R9)
	PAIR(8)
	MAXOF(AX)
	MAXOF(R9)
	ADDUP
	ADDQ $16, DI
	DECQ CX
	JNZ four
	JMP next

five:
	PAIR(0)
	FIRST(AX)
	MAXOF(R9)
	PAIR(8)
	MAXOF(AX)
	MAXOF(R9)
	MOVLQSX 16(DI), AX
	MAXOF(AX)
	ADDUP
	ADDQ $20, DI
	DECQ CX
	JNZ five
	JMP next

six:
	PAIR(0)
	FIRST(AX)
	MAXOF(R9)
	PAIR(8)
	MAXOF(AX)
	MAXOF(R9)
	PAIR(16)
	MAXOF(AX)
	MAXOF(R9)
	ADDUP
	ADDQ $24, DI
	DECQ CX
	JNZ six

next:
	DECQ R13
	JNZ block
	VMOVUPD Y2, (R8)
	VMOVUPD Y3, 32(R8)
	VZEROUPPER
	RET

// func sumLanesDAVX2(hdr *int64, nb int, prob *float64, off *int32, k, d *float64, acc, accD *[8]float64)
//
// sumLanesAVX2 with the derivative: the first option of most value in each
// lane is chosen (a later one only if strictly more), and its value in d,
// times the probability, is added to accD.
TEXT ·sumLanesDAVX2(SB), NOSPLIT, $0-64
	MOVQ hdr+0(FP), DX
	MOVQ nb+8(FP), R10
	MOVQ prob+16(FP), SI
	MOVQ off+24(FP), DI
	MOVQ k+32(FP), BX
	MOVQ d+40(FP), R12
	MOVQ acc+48(FP), R8
	MOVQ accD+56(FP), R13
	VMOVUPD (R8), Y2
	VMOVUPD 32(R8), Y3
	VMOVUPD (R13), Y10
	VMOVUPD 32(R13), Y11

dblock:
	MOVQ (DX), R11
	MOVQ 8(DX), CX
	ADDQ $16, DX
	DECQ R11

dgen:
	MOVLQSX (DI), AX
	VMOVUPD (BX)(AX*8), Y0
	VMOVUPD 32(BX)(AX*8), Y8
	VMOVUPD (R12)(AX*8), Y4
	VMOVUPD 32(R12)(AX*8), Y9
	ADDQ $4, DI
	TESTQ R11, R11
	JZ dsum
	MOVQ R11, R9

dgenin:
	MOVLQSX (DI), AX
	VMOVUPD (BX)(AX*8), Y5
	VMOVUPD 32(BX)(AX*8), Y12
	VCMPPD $0x1e, Y0, Y5, Y6
	VCMPPD $0x1e, Y8, Y12, Y13
	VBLENDVPD Y6, Y5, Y0, Y0
	VBLENDVPD Y13, Y12, Y8, Y8
	VBLENDVPD Y6, (R12)(AX*8), Y4, Y4
	VBLENDVPD Y13, 32(R12)(AX*8), Y9, Y9
	ADDQ $4, DI
	DECQ R9
	JNZ dgenin

dsum:
	VBROADCASTSD (SI), Y1
	VMULPD Y0, Y1, Y0
	VMULPD Y8, Y1, Y8
	VADDPD Y0, Y2, Y2
	VADDPD Y8, Y3, Y3
	VMULPD Y4, Y1, Y4
	VMULPD Y9, Y1, Y9
	VADDPD Y4, Y10, Y10
	VADDPD Y9, Y11, Y11
	ADDQ $8, SI
	DECQ CX
	JNZ dgen
	DECQ R10
	JNZ dblock
	VMOVUPD Y2, (R8)
	VMOVUPD Y3, 32(R8)
	VMOVUPD Y10, (R13)
	VMOVUPD Y11, 32(R13)
	VZEROUPPER
	RET

// func keepRowAVX2(q, bank, z, k, knext, kmax *float64, hotJ, dice int) uint64
//
// The after-keep values of one total of the lanes (fillLanes without
// derivatives): for dice left 0..dice-1, the better of banking (bank) and
// throwing the dice left (q at that number; hot dice: q at hotJ for none
// left; hotJ < 0: none left banks, or ends the turn with z where banking is
// not allowed, -Inf), written to k; kmax gets their lane-wise maximum, and
// the result has bit l set where a value of lane l is more than the one of
// the next total (knext).
TEXT ·keepRowAVX2(SB), NOSPLIT, $0-72
	MOVQ q+0(FP), SI
	MOVQ bank+8(FP), BX
	MOVQ z+16(FP), R8
	MOVQ k+24(FP), DI
	MOVQ knext+32(FP), R9
	MOVQ kmax+40(FP), R10
	MOVQ hotJ+48(FP), AX
	MOVQ dice+56(FP), CX
	VMOVUPD (BX), Y0
	VMOVUPD 32(BX), Y1
	XORQ R11, R11

	// none left: q at hotJ, or the bank (z where it is -Inf)
	TESTQ AX, AX
	JLE nohot
	SHLQ $6, AX
	VMAXPD (SI)(AX*1), Y0, Y2
	VMAXPD 32(SI)(AX*1), Y1, Y3
	JMP first

nohot:
	MOVQ $0xfff0000000000000, DX
	VMOVQ DX, X4
	VBROADCASTSD X4, Y4
	VCMPPD $0, Y4, Y0, Y5
	VCMPPD $0, Y4, Y1, Y6
	VBLENDVPD Y5, (R8), Y0, Y2
	VBLENDVPD Y6, 32(R8), Y1, Y3

first:
	VMOVUPD Y2, (DI)
	VMOVUPD Y3, 32(DI)
	VCMPPD $0x1e, (R9), Y2, Y5
	VCMPPD $0x1e, 32(R9), Y3, Y6
	VMOVMSKPD Y5, DX
	VMOVMSKPD Y6, R12
	SHLQ $4, R12
	ORQ DX, R11
	ORQ R12, R11
	VMOVAPD Y2, Y7
	VMOVAPD Y3, Y8
	MOVQ $1, R13
	CMPQ R13, CX
	JGE done

left:
	// q at this number of dice left: byte offset 64*left
	MOVQ R13, AX
	SHLQ $6, AX
	VMAXPD (SI)(AX*1), Y0, Y2
	VMAXPD 32(SI)(AX*1), Y1, Y3
	VMOVUPD Y2, (DI)(AX*1)
	VMOVUPD Y3, 32(DI)(AX*1)
	VCMPPD $0x1e, (R9)(AX*1), Y2, Y5
	VCMPPD $0x1e, 32(R9)(AX*1), Y3, Y6
	VMOVMSKPD Y5, DX
	VMOVMSKPD Y6, R12
	SHLQ $4, R12
	ORQ DX, R11
	ORQ R12, R11
	VMAXPD Y2, Y7, Y7
	VMAXPD Y3, Y8, Y8
	INCQ R13
	CMPQ R13, CX
	JLT left

done:
	VMOVUPD Y7, (R10)
	VMOVUPD Y8, 32(R10)
	MOVQ R11, ret+64(FP)
	VZEROUPPER
	RET

// func boundAllAVX2(bs *boundSet, dice int, kmax, qnext, bnext, bank, f *float64, cand, out *uint64)
//
// model.banked for n = 1..dice at one total of the lanes: out[n] is the
// mask of the lanes of cand[n] whose throw of n dice at the next total was
// no better than banking (qnext+64n bytes == bnext) and that may bank
// (bank > -Inf), where pf*f + the sum of prob times kmax at off (bs[n]: 32
// bytes prob, off, ng >= 0, pf), plus bankedSlack, is at most bank.
// Multiply, then add, in the order of the terms: the roundings of
// boundLanesGo.
TEXT ·boundAllAVX2(SB), NOSPLIT, $0-72
	MOVQ bs+0(FP), R12
	MOVQ dice+8(FP), R13
	MOVQ kmax+16(FP), BX
	MOVQ qnext+24(FP), R14
	MOVQ bnext+32(FP), AX
	MOVQ bank+40(FP), DX
	MOVQ f+48(FP), R11
	MOVQ cand+56(FP), R10
	MOVQ out+64(FP), R9
	VMOVUPD (AX), Y8
	VMOVUPD 32(AX), Y9
	VMOVUPD (DX), Y6
	VMOVUPD 32(DX), Y7
	MOVQ $0xfff0000000000000, AX
	VMOVQ AX, X4
	VBROADCASTSD X4, Y4
	VCMPPD $4, Y4, Y6, Y10
	VCMPPD $4, Y4, Y7, Y11
	VMOVUPD (R11), Y12
	VMOVUPD 32(R11), Y13
	MOVQ $0x3d719799812dea11, AX
	VMOVQ AX, X4
	VBROADCASTSD X4, Y14
	MOVQ $1, CX

anext:
	ADDQ $64, R14
	MOVQ (R10)(CX*8), R8
	VCMPPD $0, (R14), Y8, Y0
	VCMPPD $0, 32(R14), Y9, Y1
	VANDPD Y10, Y0, Y0
	VANDPD Y11, Y1, Y1
	VMOVMSKPD Y0, AX
	VMOVMSKPD Y1, DX
	SHLQ $4, DX
	ORQ DX, AX
	ANDQ AX, R8
	JZ astore
	MOVQ CX, AX
	SHLQ $5, AX
	MOVQ (R12)(AX*1), SI
	MOVQ 8(R12)(AX*1), DI
	MOVQ 16(R12)(AX*1), DX
	VBROADCASTSD 24(R12)(AX*1), Y1
	VMULPD Y12, Y1, Y2
	VMULPD Y13, Y1, Y3
	TESTQ DX, DX
	JZ adone

aterm:
	MOVLQSX (DI), AX
	VBROADCASTSD (SI), Y1
	VMULPD (BX)(AX*8), Y1, Y0
	VMULPD 32(BX)(AX*8), Y1, Y5
	VADDPD Y0, Y2, Y2
	VADDPD Y5, Y3, Y3
	ADDQ $4, DI
	ADDQ $8, SI
	DECQ DX
	JNZ aterm

adone:
	VADDPD Y14, Y2, Y2
	VADDPD Y14, Y3, Y3
	VCMPPD $0x12, Y6, Y2, Y2
	VCMPPD $0x12, Y7, Y3, Y3
	VMOVMSKPD Y2, AX
	VMOVMSKPD Y3, DX
	SHLQ $4, DX
	ORQ DX, AX
	ANDQ AX, R8

astore:
	MOVQ R8, (R9)(CX*8)
	INCQ CX
	CMPQ CX, R13
	JLE anext
	VZEROUPPER
	RET

// func sum3LanesAVX2(hdr *int64, nb int, prob *float64, off *int32, row *float64, acc *[16]float64)
//
// sum3Lanes of the three-player lanes (lanes3 = 4, one vector) for the
// pruned blocks of a laneSet (offsets in float64s, times e3): in each group
// the first option of most own value (at the offset) is chosen in each
// lane (a later one only if strictly more), its offset kept per lane (Y8);
// then each lane's four components, together at 32+32*l bytes past the own
// values, times the group's probability, are added to acc (lane l's
// component c at l*4+c). Only the own values of every option are read, and
// of the best one each lane's vector: a third of the cache lines of
// blending every option's components.
TEXT ·sum3LanesAVX2(SB), NOSPLIT, $0-48
	MOVQ hdr+0(FP), DX
	MOVQ nb+8(FP), R10
	MOVQ prob+16(FP), SI
	MOVQ off+24(FP), DI
	MOVQ row+32(FP), BX
	MOVQ acc+40(FP), R8
	VMOVUPD (R8), Y10
	VMOVUPD 32(R8), Y11
	VMOVUPD 64(R8), Y12
	VMOVUPD 96(R8), Y13

tblock:
	MOVQ (DX), R11
	MOVQ 8(DX), CX
	ADDQ $16, DX
	DECQ R11

tgen:
	MOVLQSX (DI), AX
	VMOVUPD (BX)(AX*8), Y0
	ADDQ $4, DI
	TESTQ R11, R11
	JZ tone
	VMOVQ AX, X8
	VPBROADCASTQ X8, Y8
	MOVQ R11, R9

tgenin:
	MOVLQSX (DI), AX
	VMOVUPD (BX)(AX*8), Y5
	VMOVQ AX, X9
	VPBROADCASTQ X9, Y9
	VCMPPD $0x1e, Y0, Y5, Y6
	VBLENDVPD Y6, Y5, Y0, Y0
	VBLENDVPD Y6, Y9, Y8, Y8
	ADDQ $4, DI
	DECQ R9
	JNZ tgenin
	VMOVQ X8, R12
	VPEXTRQ $1, X8, R13
	VEXTRACTI128 $1, Y8, X9
	VMOVQ X9, R9
	VPEXTRQ $1, X9, AX
	JMP tsum

tone:
	MOVQ AX, R12
	MOVQ AX, R13
	MOVQ AX, R9

tsum:
	VBROADCASTSD (SI), Y7
	VMULPD 32(BX)(R12*8), Y7, Y1
	VMULPD 64(BX)(R13*8), Y7, Y2
	VMULPD 96(BX)(R9*8), Y7, Y3
	VMULPD 128(BX)(AX*8), Y7, Y4
	VADDPD Y1, Y10, Y10
	VADDPD Y2, Y11, Y11
	VADDPD Y3, Y12, Y12
	VADDPD Y4, Y13, Y13
	ADDQ $8, SI
	DECQ CX
	JNZ tgen
	DECQ R10
	JNZ tblock
	VMOVUPD Y10, (R8)
	VMOVUPD Y11, 32(R8)
	VMOVUPD Y12, 64(R8)
	VMOVUPD Y13, 96(R8)
	VZEROUPPER
	RET

// func bound3AVX2(bs *boundSet, dice int, kmax, x, bOwn *float64, cand, out *uint64)
//
// banked3 for the four three-player lanes (one vector) and n = 1..dice at
// one total: out[n] is the mask of the lanes of cand[n] (none: no sum)
// where pf*x + the sum of prob times kmax at off (bs[n], offsets in
// float64s, times lanes3), plus bankedSlack, is at most bOwn. Multiply,
// then add, in the order of the terms: banked3's roundings.
TEXT ·bound3AVX2(SB), NOSPLIT, $0-56
	MOVQ bs+0(FP), R12
	MOVQ dice+8(FP), R13
	MOVQ kmax+16(FP), BX
	MOVQ x+24(FP), R11
	MOVQ bOwn+32(FP), DX
	MOVQ cand+40(FP), R10
	MOVQ out+48(FP), R9
	VMOVUPD (R11), Y12
	VMOVUPD (DX), Y6
	MOVQ $0x3d719799812dea11, AX
	VMOVQ AX, X4
	VBROADCASTSD X4, Y14
	MOVQ $1, CX

tnext:
	MOVQ (R10)(CX*8), R8
	TESTQ R8, R8
	JZ tstore
	MOVQ CX, AX
	SHLQ $5, AX
	MOVQ (R12)(AX*1), SI
	MOVQ 8(R12)(AX*1), DI
	MOVQ 16(R12)(AX*1), DX
	VBROADCASTSD 24(R12)(AX*1), Y1
	VMULPD Y12, Y1, Y2
	TESTQ DX, DX
	JZ tdone

tterm:
	MOVLQSX (DI), AX
	VBROADCASTSD (SI), Y1
	VMULPD (BX)(AX*8), Y1, Y0
	VADDPD Y0, Y2, Y2
	ADDQ $4, DI
	ADDQ $8, SI
	DECQ DX
	JNZ tterm

tdone:
	VADDPD Y14, Y2, Y2
	VCMPPD $0x12, Y6, Y2, Y2
	VMOVMSKPD Y2, AX
	ANDQ AX, R8

tstore:
	MOVQ R8, (R9)(CX*8)
	INCQ CX
	CMPQ CX, R13
	JLE tnext
	VZEROUPPER
	RET

// The lane bits 1, 2, 4, 8 (keepRow3AVX2's masks from bit sets).
DATA bits4<>+0(SB)/8, $1
DATA bits4<>+8(SB)/8, $2
DATA bits4<>+16(SB)/8, $4
DATA bits4<>+24(SB)/8, $8
GLOBL bits4<>(SB), RODATA|NOPTR, $32

// func keepRow3AVX2(q, bank, x, k, knext, kmax *float64, skips *uint64, ok, live uint64, hotJ, dice int) uint64
//
// keepRow3Go for the four three-player lanes at once: the lanes' entries
// of a row (an entry 160 bytes: the four own values, then each lane's
// vector of four components at 32+32l) are turned into components across
// the lanes (a 4x4 transpose), decided, turned back and stored for the
// lanes of live only. The same operations as keepRow3Go (own value
// v0 + v3*x, the bank on a tie), so the same values.
TEXT ·keepRow3AVX2(SB), NOSPLIT, $0-96
	MOVQ q+0(FP), SI
	MOVQ bank+8(FP), BX
	MOVQ x+16(FP), R8
	MOVQ k+24(FP), DI
	MOVQ knext+32(FP), R9
	MOVQ kmax+40(FP), R10
	MOVQ skips+48(FP), R11
	MOVQ ok+56(FP), R12
	MOVQ live+64(FP), R13
	MOVQ hotJ+72(FP), R14
	MOVQ dice+80(FP), CX
	// the bank's components across the lanes, x, and the own bank value
	VMOVUPD (BX), Y0
	VMOVUPD 32(BX), Y1
	VMOVUPD 64(BX), Y2
	VMOVUPD 96(BX), Y3
	VMOVUPD (R8), Y4
	VMULPD Y4, Y3, Y15
	VADDPD Y15, Y0, Y5
	// ok and live as lane masks
	VMOVQ R12, X6
	VPBROADCASTQ X6, Y6
	VPAND bits4<>(SB), Y6, Y6
	VPCMPEQQ bits4<>(SB), Y6, Y6
	VMOVQ R13, X7
	VPBROADCASTQ X7, Y7
	VPAND bits4<>(SB), Y7, Y7
	VPCMPEQQ bits4<>(SB), Y7, Y7
	XORQ R8, R8
	XORQ BX, BX

k3left:
	MOVQ BX, DX
	TESTQ BX, BX
	JNZ k3throw
	MOVQ R14, DX
	TESTQ DX, DX
	JG k3throw
	// none left and no hot dice: the bank where it may bank, else
	// nothing (0, 0, 0, 1)
	VXORPD Y11, Y11, Y11
	VXORPD Y12, Y12, Y12
	VXORPD Y13, Y13, Y13
	MOVQ $0x3ff0000000000000, AX
	VMOVQ AX, X14
	VPBROADCASTQ X14, Y14
	VBLENDVPD Y6, Y0, Y11, Y11
	VBLENDVPD Y6, Y1, Y13, Y13
	VBLENDVPD Y6, Y2, Y12, Y12
	VBLENDVPD Y6, Y3, Y14, Y14
	JMP k3store

k3throw:
	// the lanes' vectors of throwing j = DX dice, as components
	IMULQ $160, DX
	VMOVUPD 32(SI)(DX*1), Y9
	VMOVUPD 64(SI)(DX*1), Y10
	VMOVUPD 96(SI)(DX*1), Y11
	VMOVUPD 128(SI)(DX*1), Y12
	VUNPCKLPD Y10, Y9, Y13
	VUNPCKHPD Y10, Y9, Y14
	VUNPCKLPD Y12, Y11, Y9
	VUNPCKHPD Y12, Y11, Y10
	VPERM2F128 $0x20, Y9, Y13, Y11
	VPERM2F128 $0x31, Y9, Y13, Y12
	VPERM2F128 $0x20, Y10, Y14, Y13
	VPERM2F128 $0x31, Y10, Y14, Y14
	// the bank where the throw is skipped, or where it may bank and its
	// own value is at least the throw's
	VMULPD Y4, Y14, Y15
	VADDPD Y15, Y11, Y15
	VCMPPD $0x1d, Y15, Y5, Y15
	VANDPD Y6, Y15, Y15
	MOVQ BX, AX
	TESTQ BX, BX
	JNZ k3skip
	MOVQ R14, AX

k3skip:
	MOVQ (R11)(AX*8), AX
	VMOVQ AX, X9
	VPBROADCASTQ X9, Y9
	VPAND bits4<>(SB), Y9, Y9
	VPCMPEQQ bits4<>(SB), Y9, Y9
	VORPD Y9, Y15, Y15
	VBLENDVPD Y15, Y0, Y11, Y11
	VBLENDVPD Y15, Y1, Y13, Y13
	VBLENDVPD Y15, Y2, Y12, Y12
	VBLENDVPD Y15, Y3, Y14, Y14

k3store:
	// own values, the rise over the next total, the most own value
	MOVQ BX, AX
	IMULQ $160, AX
	VMULPD Y4, Y14, Y15
	VADDPD Y15, Y11, Y15
	VMASKMOVPD Y15, Y7, (DI)(AX*1)
	VCMPPD $0x1e, (R9)(AX*1), Y15, Y9
	VMOVMSKPD Y9, DX
	ANDQ R13, DX
	ORQ DX, R8
	TESTQ BX, BX
	JNZ k3max
	VMOVAPD Y15, Y8
	JMP k3back

k3max:
	VMAXPD Y15, Y8, Y8

k3back:
	// back to each lane's vector, stored for the live lanes
	VUNPCKLPD Y13, Y11, Y9
	VUNPCKHPD Y13, Y11, Y10
	VUNPCKLPD Y14, Y12, Y11
	VUNPCKHPD Y14, Y12, Y12
	VPERM2F128 $0x20, Y11, Y9, Y13
	VPERM2F128 $0x31, Y11, Y9, Y14
	VPERM2F128 $0x20, Y12, Y10, Y9
	VPERM2F128 $0x31, Y12, Y10, Y10
	BTQ $0, R13
	JCC k3l1
	VMOVUPD Y13, 32(DI)(AX*1)

k3l1:
	BTQ $1, R13
	JCC k3l2
	VMOVUPD Y9, 64(DI)(AX*1)

k3l2:
	BTQ $2, R13
	JCC k3l3
	VMOVUPD Y14, 96(DI)(AX*1)

k3l3:
	BTQ $3, R13
	JCC k3next
	VMOVUPD Y10, 128(DI)(AX*1)

k3next:
	INCQ BX
	CMPQ BX, CX
	JLT k3left
	VMASKMOVPD Y8, Y7, (R10)
	MOVQ R8, ret+88(FP)
	VZEROUPPER
	RET
