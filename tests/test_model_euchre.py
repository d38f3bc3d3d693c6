"""Standard Euchre should-bid under the auction model of the other players (issue 14; ``kernels/euchre/model.py``).

- every legal auction before the player's turn (0..7 passes, with and without
  stick the dealer, every play-out) gets an answer under the default softmax
  model; a call other than a pass before the turn is bad input naming it;
- the model's choice probabilities sum to 1 over the legal calls, a random
  seat is uniform, and a sharp model (epsilon 0, tau 0) weighs a deal 1 exactly
  when the strategy reproduces the passes (the exact rejection test), else 0;
- the weighted play-out (the passes before the turn given, ``F_PASSES``) is
  today's ``play_dealt`` on deals the strategy passes on;
- a sharp softmax model agrees with ``--model exact`` within the intervals;
- the same seed gives the same answer on 1 and 2 threads;
- ``--model exact`` gives today's answers field for field: ``TODAY`` was written
  by the code before the model (commit cb3556c, ``advise`` with ``threads=2``,
  less ``elapsed_s``, ``compiled``, ``threads``).
"""

from __future__ import annotations

import json

import numba
import numpy as np
import pytest

from bower.kernels.euchre import advice as ea
from bower.kernels.euchre import hand as ek
from bower.kernels.euchre import model as em
from bower.kernels.euchre.strategy import card_weights
from bower.sim.advice import AdviceError
from bower.sim.variants.euchre import hands as eh
from bower.sim.variants.euchre.advice import advise, format_advice

TODAY = json.loads(
    '[{"args":{"hand":"JS JC AS 9H QD","upcard":"TS","position":1,"calls":null,"samples":1000,"seed":3},"answer":'
    '{"variant":"euchre","hand":["JC","JS","AS","QD","9H"],"upcard":"TS","position":1,"round":1,"passes_before":0'
    ',"rules":{"stick_the_dealer":false,"allow_lone_defender":false,"loner_lead":"dealer",'
    '"canadian":false,"discard_up":false,"loner_march_score":4,"loner_euchred_score":2,"fast_break":false,"four_trick_tokens":false,'
    '"farmers":false,"go_under":false,"partners_best":false},"strategy":"default",'
    '"seed":3,"samples":1000'
    ',"draws":1000,"acceptance_rate":1.0,"stopped":"samples","actions":[{"action":"pass","alone":false,"samples":'
    '1000,"side_maker":0.778,"side_maker_ci95":[0.7512053591381822,0.8026669631438492],"make_prob":0.835475578406'
    '1697,"make_ci95":[0.8077871725413164,0.85986736804466],"mean_tricks":3.389,"tricks_ci95":[3.334174882736246,'
    '3.4438251172637537],"expected_points":0.944,"points_ci95":[0.8686409180589585,1.0193590819410414],"expected_'
    'margin":0.944,"margin_ci95":[0.8686409180589585,1.0193590819410414],"side_points":1.2,"side_points_ci95":[1.'
    '1600044187950134,1.2399955812049865]},{"action":"order it up, with partner","alone":false,"samples":1000,"si'
    'de_maker":1.0,"side_maker_ci95":[0.996173241514445,1.0],"make_prob":1.0,"make_ci95":[0.996173241514445,1.0],'
    '"mean_tricks":3.632,"tricks_ci95":[3.580394134543149,3.683605865456851],"expected_points":1.23,"points_ci95"'
    ':[1.2039039589112557,1.2560960410887443],"expected_margin":1.23,"margin_ci95":[1.2039039589112557,1.25609604'
    '10887443],"side_points":1.23,"side_points_ci95":[1.2039039589112557,1.2560960410887443]},{"action":"order it'
    ' up, alone","alone":true,"samples":1000,"side_maker":1.0,"side_maker_ci95":[0.996173241514445,1.0],"make_pro'
    'b":1.0,"make_ci95":[0.996173241514445,1.0],"mean_tricks":3.097,"tricks_ci95":[3.077041570713252,3.1169584292'
    '86748],"expected_points":1.024,"points_ci95":[1.0074275227617875,1.0405724772382126],"expected_margin":1.024'
    ',"margin_ci95":[1.0074275227617875,1.0405724772382126],"side_points":1.024,"side_points_ci95":[1.00742752276'
    '17875,1.0405724772382126]}],"recommendation":{"action":"order it up, with partner","expected_points":1.23,"c'
    'lear":true,"runner_up":"order it up, alone","diff_points":0.206,"diff_ci95":[0.17747758912954242,0.234522410'
    '87045755]}}},{"args":{"hand":"QC TS 9S KD 9H","upcard":"JS","position":3,"calls":"pass,pass","samples":600,"'
    'seed":4},"answer":{"variant":"euchre","hand":["QC","9S","TS","KD","9H"],"upcard":"JS","position":3,"round":1'
    ',"passes_before":2,"rules":{"stick_the_dealer":false,"allow_lone_defender":false,"loner_lead":"dealer",'
    '"canadian":false,"discard_up":false,"loner_march_score":4,"loner_euchred_score":2,"fast_break":false,"four_trick_tokens":false,'
    '"farmers":false,"go_under":false,"partners_best":false},"strategy":"default","seed'
    '":4,"samples":600,"draws":837,"acceptance_rate":0.7168458781362007,"stopped":"samples","actions":[{"action":'
    '"pass","alone":false,"samples":600,"side_maker":0.11,"side_maker_ci95":[0.08740186474759913,0.13756026204308'
    '74],"make_prob":0.6060606060606061,"make_ci95":[0.4854840080039292,0.7149699950538045],"mean_tricks":1.47,"t'
    'ricks_ci95":[1.3865544979173017,1.5534455020826983],"expected_points":-1.1016666666666666,"points_ci95":[-1.'
    '2234157528382017,-0.9799175804951313],"expected_margin":-1.1016666666666666,"margin_ci95":[-1.22341575283820'
    '17,-0.9799175804951313],"side_points":0.23666666666666666,"side_points_ci95":[0.18791157955007412,0.28542175'
    '37832592]},{"action":"order it up, with partner","alone":false,"samples":600,"side_maker":1.0,"side_maker_ci'
    '95":[0.9936382989862994,1.0],"make_prob":0.14166666666666666,"make_ci95":[0.11603997240185697'
    ',0.17185257999129525],"mean_tricks":1.335,"tricks_ci95":[1.2545408772022066,1.4154591227977933],"expected_po'
    'ints":-1.575,"points_ci95":[-1.65877564139801,-1.49122435860199],"expected_margin":-1.575,"margin_ci95":[-1.'
    '65877564139801,-1.49122435860199],"side_points":0.14166666666666666,"side_points_ci95":[0.11374145286732999,'
    '0.16959188046600332]},{"action":"order it up, alone","alone":true,"samples":600,"side_maker":1.0,"side_maker'
    '_ci95":[0.9936382989862994,1.0],"make_prob":0.0,"make_ci95":[4.336808689942018e-19,0.00636170'
    '101370071],"mean_tricks":0.5966666666666667,"tricks_ci95":[0.5449333365161778,0.6483999968171555],"expected_'
    'points":-2.0,"points_ci95":[-2.0,-2.0],"expected_margin":-2.0,"margin_ci95":[-2.0,-2.0],"side_points":0.0,"s'
    'ide_points_ci95":[0.0,0.0]}],"recommendation":{"action":"pass","expected_points":-1.1016666666666666,"clear"'
    ':true,"runner_up":"order it up, with partner","diff_points":0.47333333333333333,"diff_ci95":[0.3626784709454'
    '745,0.5839881957211921]}}},{"args":{"hand":"9C TC 9D TD QH","upcard":"9S","position":4,"calls":"pass,pass,pa'
    'ss,pass,pass,pass,pass","samples":400,"seed":4,"rules":{"stick_the_dealer":true},"bid":"H"},"answer":{"varia'
    'nt":"euchre","hand":["9C","TC","9D","TD","QH"],"upcard":"9S","position":4,"round":2,"passes_before":7,"rules'
    '":{"stick_the_dealer":true,"allow_lone_defender":false,"loner_lead":"dealer",'
    '"canadian":false,"discard_up":false,"loner_march_score":4,"loner_euchred_score":2,"fast_break":false,"four_trick_tokens":false,'
    '"farmers":false,"go_under":false,"partners_best":false},"strategy":"default",'
    '"seed":4,"samples":2,"draws":40'
    '9600,"acceptance_rate":4.8828125e-06,"stopped":"acceptance","actions":[{"action":"name C, with partner","alo'
    'ne":false,"samples":2,"side_maker":1.0,"side_maker_ci95":[0.34238022750665303,1.0],"make_prob":0.5,"make_ci9'
    '5":[0.09453120573423074,0.9054687942657693],"mean_tricks":2.0,"tricks_ci95":[0.04003601545994595,3.959963984'
    '540054],"expected_points":-0.5,"points_ci95":[-3.439945976810081,2.439945976810081],"expected_margin":-0.5,"'
    'margin_ci95":[-3.439945976810081,2.439945976810081],"side_points":0.5,"side_points_ci95":[-0.479981992270027'
    ',1.479981992270027]},{"action":"name C, alone","alone":true,"samples":2,"side_maker":1.0,"side_maker_ci95":['
    '0.34238022750665303,1.0],"make_prob":0.0,"make_ci95":[0.0,0.6576197724933469],"mean_tricks":1.5,"tricks_ci95'
    '":[0.520018007729973,2.479981992270027],"expected_points":-2.0,"points_ci95":[-2.0,-2.0],"expected_margin":-'
    '2.0,"margin_ci95":[-2.0,-2.0],"side_points":0.0,"side_points_ci95":[0.0,0.0]},{"action":"name D, with partne'
    'r","alone":false,"samples":2,"side_maker":1.0,"side_maker_ci95":[0.34238022750665303,1.0],"make_prob":0.0,"m'
    'ake_ci95":[0.0,0.6576197724933469],"mean_tricks":2.0,"tricks_ci95":[2.0,2.0],"expected_points":-2.0,"points_'
    'ci95":[-2.0,-2.0],"expected_margin":-2.0,"margin_ci95":[-2.0,-2.0],"side_points":0.0,"side_points_ci95":[0.0'
    ',0.0]},{"action":"name D, alone","alone":true,"samples":2,"side_maker":1.0,"side_maker_ci95":[0.342380227506'
    '65303,1.0],"make_prob":0.0,"make_ci95":[0.0,0.6576197724933469],"mean_tricks":2.0,"tricks_ci95":[2.0,2.0],"e'
    'xpected_points":-2.0,"points_ci95":[-2.0,-2.0],"expected_margin":-2.0,"margin_ci95":[-2.0,-2.0],"side_points'
    '":0.0,"side_points_ci95":[0.0,0.0]},{"action":"name H, with partner","alone":false,"samples":2,"side_maker":'
    '1.0,"side_maker_ci95":[0.34238022750665303,1.0],"make_prob":0.0,"make_ci95":[0.0,0.6576197724933469],"mean_t'
    'ricks":1.5,"tricks_ci95":[0.520018007729973,2.479981992270027],"expected_points":-2.0,"points_ci95":[-2.0,-2'
    '.0],"expected_margin":-2.0,"margin_ci95":[-2.0,-2.0],"side_points":0.0,"side_points_ci95":[0.0,0.0]},{"actio'
    'n":"name H, alone","alone":true,"samples":2,"side_maker":1.0,"side_maker_ci95":[0.34238022750665303,1.0],"ma'
    'ke_prob":0.0,"make_ci95":[0.0,0.6576197724933469],"mean_tricks":1.0,"tricks_ci95":[1.0,1.0],"expected_points'
    '":-2.0,"points_ci95":[-2.0,-2.0],"expected_margin":-2.0,"margin_ci95":[-2.0,-2.0],"side_points":0.0,"side_po'
    'ints_ci95":[0.0,0.0]}],"recommendation":{"action":"name C, with partner","expected_points":-0.5,"clear":fals'
    'e,"runner_up":"name C, alone","diff_points":1.5,"diff_ci95":[-1.439945976810081,4.4399459768100815]},"questi'
    'on":{"action":"name H, with partner","against":"name C, with partner","make_prob":0.0,"make_ci95":[0.0,0.657'
    '6197724933469],"expected_points":-2.0,"ev_diff":-1.5,"ev_diff_ci95":[-4.4399459768100815,1.439945976810081],'
    '"verdict":"close call: name H, with partner and name C, with partner are within the interval of each other"}'
    '}},{"args":{"hand":"AH KH QD JD 9C","upcard":"TS","position":2,"calls":"pass,pass,pass,pass,pass","samples":'
    '500,"seed":7,"bid":"H alone"},"answer":{"variant":"euchre","hand":["9C","JD","QD","KH","AH"],"upcard":"TS","'
    'position":2,"round":2,"passes_before":5,"rules":{"stick_the_dealer":false,"allow_lone_defender":false,"loner_lead":"dealer",'
    '"canadian":false,"discard_up":false,"loner_march_score":4,"loner_euchred_score":2,"fast_break":false,"four_trick_tokens":false,'
    '"farmers":false,"go_under":false,"partners_best":false},"stra'
    'tegy":"default","seed":7,"samples":500,"draws":6281,"acceptance_rate":0.07960515841426524,"stopped":"samples'
    '","actions":[{"action":"pass","alone":false,"samples":500,"side_maker":0.122,"side_maker_ci95":[0.0961592783'
    '150937,0.15360472307383977],"make_prob":0.9344262295081968,"make_ci95":[0.8431719832010424,0.974206295510433'
    '5],"mean_tricks":2.28,"tricks_ci95":[2.174946188372963,2.385053811627037],"expected_points":0.074,"points_ci'
    '95":[-0.06672703442811735,0.21472703442811736],"expected_margin":0.074,"margin_ci95":[-0.06672703442811735,0'
    '.21472703442811736],"side_points":0.772,"side_points_ci95":[0.6882086771365749,0.8557913228634252]},{"action'
    '":"name C, with partner","alone":false,"samples":500,"side_maker":1.0,"side_maker_ci95":[0.9923756595384479,'
    '1.0],"make_prob":0.34,"make_ci95":[0.29983885845371416,0.3826009304939827],"mean_tricks":2.122,"tricks_ci95"'
    ':[2.0310242843137356,2.212975715686264],"expected_points":-0.974,"points_ci95":[-1.099603901981213,-0.848396'
    '098018787],"expected_margin":-0.974,"margin_ci95":[-1.099603901981213,-0.848396098018787],"side_points":0.34'
    '6,"side_points_ci95":[0.30317027763928944,0.3888297223607105]},{"action":"name C, alone","alone":true,"sampl'
    'es":500,"side_maker":1.0,"side_maker_ci95":[0.9923756595384479,1.0],"make_prob":0.064,"make_ci95":[0.0456960'
    '1604478943,0.08895240883768415],"mean_tricks":1.438,"tricks_ci95":[1.3690162399122685,1.5069837600877314],"e'
    'xpected_points":-1.808,"points_ci95":[-1.8724238958945512,-1.743576104105449],"expected_margin":-1.808,"marg'
    'in_ci95":[-1.8724238958945512,-1.743576104105449],"side_points":0.064,"side_points_ci95":[0.0425253680351496'
    '3,0.08547463196485038]},{"action":"name D, with partner","alone":false,"samples":500,"side_maker":1.0,"side_'
    'maker_ci95":[0.9923756595384479,1.0],"make_prob":0.836,"make_ci95":[0.8010053635257086,0.8658710796841282],"'
    'mean_tricks":3.482,"tricks_ci95":[3.3988700297090637,3.5651299702909367],"expected_points":0.644,"points_ci9'
    '5":[0.5370699806143733,0.7509300193856268],"expected_margin":0.644,"margin_ci95":[0.5370699806143733,0.75093'
    '00193856268],"side_points":0.972,"side_points_ci95":[0.9240056378041044,1.0199943621958956]},{"action":"name'
    ' D, alone","alone":true,"samples":500,"side_maker":1.0,"side_maker_ci95":[0.9923756595384479,1.0],"make_prob'
    '":0.442,"make_ci95":[0.3990759531428234,0.4858084703507167],"mean_tricks":2.476,"tricks_ci95":[2.41562975289'
    '99056,2.5363702471000944],"expected_points":-0.668,"points_ci95":[-0.7998372830389842,-0.5361627169610159],"'
    'expected_margin":-0.668,"margin_ci95":[-0.7998372830389842,-0.5361627169610159],"side_points":0.448,"side_po'
    'ints_ci95":[0.4022996513342139,0.4937003486657861]},{"action":"name H, with partner","alone":false,"samples"'
    ':500,"side_maker":1.0,"side_maker_ci95":[0.9923756595384479,1.0],"make_prob":0.894,"make_ci95":[0.8639490699'
    '892671,0.9180429497270297],"mean_tricks":3.622,"tricks_ci95":[3.54555450611494,3.69844549388506],"expected_p'
    'oints":0.838,"points_ci95":[0.7466594598224852,0.9293405401775148],"expected_margin":0.838,"margin_ci95":[0.'
    '7466594598224852,0.9293405401775148],"side_points":1.05,"side_points_ci95":[1.0053042222011257,1.09469577779'
    '88744]},{"action":"name H, alone","alone":true,"samples":500,"side_maker":1.0,"side_maker_ci95":[0.992375659'
    '5384479,1.0],"make_prob":0.694,"make_ci95":[0.652255219632054,0.7327865362688636],"mean_tricks":2.806,"trick'
    's_ci95":[2.751887509676906,2.860112490323094],"expected_points":0.082,"points_ci95":[-0.03929964263991512,0.'
    '20329964263991512],"expected_margin":0.082,"margin_ci95":[-0.03929964263991512,0.20329964263991512],"side_po'
    'ints":0.694,"side_points_ci95":[0.6535667857866949,0.734433214213305]}],"recommendation":{"action":"name H, '
    'with partner","expected_points":0.838,"clear":true,"runner_up":"name D, with partner","diff_points":0.194,"d'
    'iff_ci95":[0.07798510642926665,0.31001489357073336]},"question":{"action":"name H, alone","against":"name H,'
    ' with partner","make_prob":0.694,"make_ci95":[0.652255219632054,0.7327865362688636],"expected_points":0.082,'
    '"ev_diff":-0.756,"ev_diff_ci95":[-0.86057140278833,-0.65142859721167],"verdict":"no: name H, with partner is'
    ' better by 0.756 points a hand"}}},{"args":{"hand":"JH JD AH KH 9S","upcard":"QH","position":1,"calls":null,'
    '"samples":null,"seed":0,"cap":4096},"answer":{"variant":"euchre","hand":["9S","JD","JH","KH","AH"],"upcard":'
    '"QH","position":1,"round":1,"passes_before":0,"rules":{"stick_the_dealer":false,"allow_lone_defender":false,"loner_lead":"dealer",'
    '"canadian":false,"discard_up":false,"loner_march_score":4,"loner_euchred_score":2,"fast_break":false,"four_trick_tokens":false,'
    '"farmers":false,"go_under":false,"partners_best":false}'
    ',"strategy":"default","seed":0,"samples":4096,"draws":4096,"acceptance_rate":1.0,"stopped":"clear","actions"'
    ':[{"action":"pass","alone":false,"samples":4096,"side_maker":0.88818359375,"side_maker_ci95":[0.878166543713'
    '03,0.8974732052724629],"make_prob":0.8653106102253986,"make_ci95":[0.8538309126115652,0.8760196396584167],"m'
    'ean_tricks":3.7119140625,"tricks_ci95":[3.683992502599565,3.739835622400435],"expected_points":0.90087890625'
    ',"points_ci95":[0.8656019372237111,0.9361558752762889],"expected_margin":0.90087890625,"margin_ci95":[0.8656'
    '019372237111,0.9361558752762889],"side_points":1.14013671875,"side_points_ci95":[1.1217660358623747,1.158507'
    '4016376253]},{"action":"order it up, with partner","alone":false,"samples":4096,"side_maker":1.0,"side_maker'
    '_ci95":[0.9990630225926348,0.9999999999999999],"make_prob":1.0,"make_ci95":[0.9990630225926348,0.99999999999'
    '99999],"mean_tricks":4.46728515625,"tricks_ci95":[4.452003883412369,4.482566429087631],"expected_points":1.4'
    '6728515625,"points_ci95":[1.4520038834123694,1.4825664290876306],"expected_margin":1.46728515625,"margin_ci9'
    '5":[1.4520038834123694,1.4825664290876306],"side_points":1.46728515625,"side_points_ci95":[1.452003883412369'
    '4,1.4825664290876306]},{"action":"order it up, alone","alone":true,"samples":4096,"side_maker":1.0,"side_mak'
    'er_ci95":[0.9990630225926348,0.9999999999999999],"make_prob":1.0,"make_ci95":[0.9990630225926348,0.999999999'
    '9999999],"mean_tricks":4.410888671875,"tricks_ci95":[4.395819759449293,4.425957584300707],"expected_points":'
    '2.232666015625,"points_ci95":[2.1874592783478795,2.2778727529021205],"expected_margin":2.232666015625,"margi'
    'n_ci95":[2.1874592783478795,2.2778727529021205],"side_points":2.232666015625,"side_points_ci95":[2.187459278'
    '3478795,2.2778727529021205]}],"recommendation":{"action":"order it up, alone","expected_points":2.2326660156'
    '25,"clear":true,"runner_up":"order it up, with partner","diff_points":0.765380859375,"diff_ci95":[0.73305190'
    '43702316,0.7977098143797684]}}}]'
)

SOFT = {"kind": "softmax"}
SHARP = {"kind": "softmax", "tau": 0.0, "epsilon": 0.0}
def _deals(n: int, seed: int):
    """``n`` random deals: hands by seat (dealer seat 3) and the kitty's 4 cards (the first the up-card)."""
    rng = np.random.default_rng(seed)
    for _ in range(n):
        deck = rng.permutation(24)
        hands = np.zeros(4, np.int64)
        for i in range(20):
            hands[i % 4] |= np.int64(1) << int(deck[i])
        yield hands, np.array(deck[20:24], np.int64)


# ---------------------------------------------------------------- every legal auction gets an answer


@pytest.mark.parametrize("stick", [False, True])
@pytest.mark.parametrize("n_passes", range(8))
def test_every_legal_auction_gets_an_answer(n_passes, stick):
    calls = ",".join(["pass"] * n_passes)
    position = n_passes % 4 + 1
    for hand, up in (("JS JC AS 9H QD", "TS"), ("9C TC 9D TD QH", "AS")):
        playout = ("strategy", "dd", "both")[(n_passes + len(hand)) % 3]
        r = advise(hand, up, position=position, calls=calls, samples=64, seed=n_passes, threads=1,
                   rules={"stick_the_dealer": stick}, model=SOFT, playout=playout)
        # epsilon > 0: every drawn deal has positive weight; Russian roulette plays a light one or skips it
        assert 0 < r["samples"] <= r["draws"]
        assert r["ess"] >= 64 and r["model"] == {"kind": "softmax", "tau": 0.25, "epsilon": 0.01}
        assert [x["seat"] for x in r["inference"]] == [s for s in range(4) if s != position - 1]
        for row in r["inference"]:
            assert 0.0 <= row["right_bower"] <= 1.0 and row["up_suit_estimate"] >= 0.0
        want = (["actions"] if playout != "dd" else []) + (["actions_dd"] if playout != "strategy" else [])
        for key in want:
            for e in r[key]:
                assert -4.0 <= e["expected_points"] <= 4.0 and e["points_ci95"][0] <= e["points_ci95"][1]
        if n_passes == 7 and stick:
            assert all(a["action"] != "pass" for a in r["actions"])
        text = format_advice(r)
        assert "model: softmax, tau 0.25" in text and "effective sample size" in text and "position" in text


def test_an_illegal_call_before_the_turn_is_bad_input():
    with pytest.raises(AdviceError, match=r"call 2 \('order'\)"):
        advise("JS JC AS 9H QD", "TS", position=3, calls="pass,order", samples=64, model=SOFT)
    with pytest.raises(AdviceError, match="eight passes"):
        advise("JS JC AS 9H QD", "TS", position=1, calls=",".join(["pass"] * 8), samples=64, model=SOFT)


def test_defaults_keep_old_callers_working():
    r = advise("JH JD AH KH 9S", "QH", position=1, samples=256, seed=0, threads=1)  # the benchmark's call
    assert r["model"]["kind"] == "softmax" and r["playout"] == "strategy" and "actions_dd" not in r
    assert r["recommendation"]["action"].startswith("order it up")


# ---------------------------------------------------------------- the model kernel


def test_choice_probabilities_sum_to_one_and_random_seats_are_uniform():
    params = eh.seat_params("default")
    rnd = eh.seat_params("random")
    out = np.zeros(4)
    for model in (np.array([1.0, 0.25, 0.01]), np.array([1.0, 1e-6, 0.0]), np.array([1.0, 2.0, 0.3])):
        for hands, kitty in _deals(40, 1):
            for i in range(7):
                n = em.call_probabilities(hands, kitty[0], 3, i, params, False, model, out)
                assert n == (2 if i < 4 else 4)
                assert abs(out[:n].sum() - 1.0) < 1e-12 and (out[:n] >= 0).all()
                n = em.call_probabilities(hands, kitty[0], 3, i, rnd, False, model, out)
                assert np.allclose(out[:n], 1.0 / n)


@pytest.mark.parametrize("discard_up", [False, True])
def test_a_sharp_model_weighs_a_deal_as_the_exact_rejection(discard_up):
    """Also under ``discard_up``: the dealer's take weighed on its best five of six, as its strategy decides."""
    rules = eh.rules_vector({"discard_up": True} if discard_up else None)
    sharp = np.array([1.0, 0.0, 0.0])
    for strategy in ("default", "cautious", "aggressive"):
        params = eh.seat_params(strategy)
        wt = np.zeros((4, 4, 24))
        card_weights(params, wt)
        rec = np.zeros(ek.R_WIDTH, np.int64)
        seen = [0, 0]
        for hands, kitty in _deals(400, 2):
            up = kitty[0]
            for n_passes in range(8):
                player = n_passes % 4
                check = ek.NO_FORCE.copy()
                check[ek.F_SEAT], check[ek.F_AT], check[ek.F_CALL] = player, n_passes, ek.CALL_PASS
                h = hands.copy()
                ek.auction(h, up, 3, rules, params, wt, tuple(int(x) for x in check), np.zeros(4, np.uint64),
                           np.zeros(2, np.int64), rec, None)
                passes = rec[ek.R_NCALLS] > n_passes and all(
                    rec[ek.R_CALLS + 2 * i + 1] == ek.CALL_PASS for i in range(n_passes))
                w = em.weight_of(hands, up, 3, n_passes, player, params, discard_up, sharp)
                assert w == (1.0 if passes else 0.0), (strategy, n_passes)
                seen[int(passes)] += 1
                soft = em.weight_of(hands, up, 3, n_passes, player, params, discard_up, np.array([1.0, 0.25, 0.01]))
                assert 0.0 < soft <= 1.0
        assert min(seen) > 100


def test_the_forced_play_out_is_todays_on_deals_the_strategy_passes_on():
    rules = eh.rules_vector({"stick_the_dealer": True, "allow_lone_defender": True})
    params = eh.seat_params("default")
    wt = np.zeros((4, 4, 24))
    card_weights(params, wt)
    rec, rec2 = np.zeros(ek.R_WIDTH, np.int64), np.zeros(ek.R_WIDTH, np.int64)
    scratch = [np.zeros(4, np.int64) for _ in range(4)]
    compared = 0
    for hands, kitty in _deals(300, 3):
        up = kitty[0]
        for n_passes in range(8):
            player = n_passes % 4
            if em.weight_of(hands, up, 3, n_passes, player, params, False, np.array([1.0, 0.0, 0.0])) == 0.0:
                continue
            for code, alone in ea.open_actions(n_passes, up, True).tolist():
                force = np.array([player, n_passes, code, alone, 0], np.int64)
                given = np.array([player, n_passes, code, alone, n_passes], np.int64)
                d1, d2 = np.zeros(4, np.uint64), np.zeros(4, np.uint64)
                ek.play_dealt(hands, kitty, 3, rules, params, wt, force, d1, np.zeros(2, np.int64), scratch[0],
                              scratch[1], rec, None, None)
                ek.play_dealt(hands, kitty, 3, rules, params, wt, given, d2, np.zeros(2, np.int64), scratch[2],
                              scratch[3], rec2, None, None)
                assert np.array_equal(rec, rec2)
                compared += 1
    assert compared > 500


# ---------------------------------------------------------------- the answers


@pytest.mark.parametrize("case", [
    {"hand": "QC TS 9S KD 9H", "upcard": "JS", "position": 3, "calls": "pass,pass"},
    {"hand": "AH KH QD JD 9C", "upcard": "TS", "position": 2, "calls": "pass,pass,pass,pass,pass"},
])
def test_a_sharp_model_agrees_with_exact_rejection(case):
    a = advise(**case, samples=3000, seed=1, threads=1, model={"kind": "exact"})
    b = advise(**case, samples=3000, seed=2, threads=1, model=SHARP)
    assert b["ess"] == pytest.approx(b["samples"])  # weights 0 or 1
    assert abs(a["acceptance_rate"] - b["acceptance_rate"]) < 0.05
    for x, y in zip(a["actions"], b["actions"]):
        hx = (x["points_ci95"][1] - x["points_ci95"][0]) / 2
        hy = (y["points_ci95"][1] - y["points_ci95"][0]) / 2
        assert abs(x["expected_points"] - y["expected_points"]) <= hx + hy + 1e-9, x["action"]
    for x, y in zip(a["inference"], b["inference"]):
        assert abs(x["up_suit_estimate"] - y["up_suit_estimate"]) < 0.1


@pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2, reason="needs 2 threads")
def test_same_seed_same_answer_for_one_and_two_threads():
    for model, playout in ((SOFT, "both"), ({"kind": "exact"}, "dd")):
        kw = {"position": 3, "calls": "pass,pass", "samples": 1500, "seed": 4, "model": model, "playout": playout,
              "bid": "order"}
        a = advise("QC TS 9S KD 9H", "JS", threads=1, **kw)
        b = advise("QC TS 9S KD 9H", "JS", threads=2, **kw)
        for k in ("actions", "actions_dd", "recommendation", "recommendation_dd", "inference", "ess", "draws",
                  "question"):
            assert a[k] == b[k], k


def test_the_double_dummy_play_out():
    r = advise("JS JC AS KS QD", "TS", position=1, samples=500, seed=1, threads=1, model=SOFT, playout="both")
    dd = {e["action"]: e for e in r["actions_dd"]}
    assert dd["order it up, with partner"]["side_maker"] == 1.0
    assert dd["order it up, with partner"]["make_prob"] > 0.95  # four top trumps: made with best defence too
    assert r["recommendation_dd"]["action"].startswith("order it up")
    assert "double-dummy play-out:" in format_advice(r)


def test_the_inference_reads_the_passes():
    # the dealer's partner passed (round one): it is less likely to hold the right bower than a seat not yet asked
    r = advise("9C TC QS KD 9H", "TD", position=2, calls="pass", samples=4000, seed=3, threads=1, model=SOFT)
    who = {x["seat"]: x for x in r["inference"]}
    assert who[0]["up_suit_estimate"] < who[2]["up_suit_estimate"]
    assert who[0]["right_bower"] < who[2]["right_bower"]


@pytest.mark.parametrize("i", range(len(TODAY)))
def test_exact_model_gives_todays_answer(i):
    case = TODAY[i]
    r = advise(**case["args"], threads=1, model={"kind": "exact"})  # written on 2 threads: the same answer
    got = json.loads(json.dumps({k: r[k] for k in case["answer"]}))
    assert got == case["answer"]
    assert r["model"] == {"kind": "exact", "tau": 0.0, "epsilon": 0.0} and r["ess"] == r["samples"]
