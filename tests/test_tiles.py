"""Tile and wave quantization against the worked checks of hardware-fit-rules F3-F5."""

from scorer.tiles import efficiency_for_tile, gemm_efficiency, misalignment_factor


def test_1792_square_on_a100_one_wave():
    # 256x128 tiles: ceil(1792/256)=7 x ceil(1792/128)=14 = 98 CTAs <= 108 SMs: one wave, eta = 98/108
    eta = efficiency_for_tile(1792, 1792, 1792, 108, (256, 128, 64))
    assert abs(eta - 98 / 108) < 1e-9
    assert round(eta, 2) == 0.91


def test_one_more_row_spills_into_a_second_wave():
    # 1793 rows: 8 x 14 = 112 CTAs -> 2 waves of 108; eta_tile = 1793*1792/(2048*1792); eta_wave = 112/216
    eta = efficiency_for_tile(1793, 1792, 1792, 108, (256, 128, 64))
    expected = (1793 * 1792) / (2048 * 1792) * (112 / 216)
    assert abs(eta - expected) < 1e-9
    assert round(eta, 2) == 0.45


def test_gpt_oss_hidden_2880_tile_efficiency():
    # N = 2880 with Tn = 256: ceil(2880/256) = 12 tiles -> 2880 / 3072 = 0.9375 (before wave effects)
    tm, tn = 128, 256
    eta_tile_only = (8192 * 2880) / ((-(-8192 // tm) * tm) * (-(-2880 // tn) * tn))
    assert eta_tile_only == 0.9375


def test_llama_up_projection_8k_tokens_on_h100():
    # stas00 worked example: 8192 x 14336 output, 128x256 tiles -> 64 x 56 = 3584 CTAs, 28 waves on 132 SMs
    eta = efficiency_for_tile(8192, 14336, 4096, 132, (128, 256, 64))
    assert abs(eta - 3584 / (28 * 132)) < 1e-9
    assert round(eta, 3) == 0.970
    assert gemm_efficiency(8192, 14336, 4096, 132) >= eta  # best tile is at least as good


def test_misalignment_factor_is_the_measured_e3_ratio():
    assert misalignment_factor(10922, 4096) == 272.73 / 398.38  # 10922 % 8 = 2: not 16-byte aligned
    assert misalignment_factor(10944, 4096) == 1.0
    assert misalignment_factor(4544 + 8, 4096, dtype_bytes=1.0) == 272.73 / 398.38  # FP8 needs % 16
