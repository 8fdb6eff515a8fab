"""Median time to extract candidate claims from a ~10 KB Portuguese article.

Builds the article from our own synthetic sentences (never the seed articles), runs
``claims.extract.extractor.extract`` many times and prints the median in milliseconds.
Target: under 50 ms on the project machine. Usage: ``python bench/extract_bench.py [RUNS]``.
"""

from __future__ import annotations

import datetime as dt
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from claims.extract.extractor import extract  # noqa: E402
from claims.subjects.references import SubjectRef  # noqa: E402

SUBJECTS = [
    SubjectRef(
        "kimi-k3.1-pro",
        ("Kimi K3.1 Pro", "Kimi 3.1 Pro", "K3.1 Pro"),
        ("Standard", "Highspeed"),
        "Moonshot AI",
    ),
    SubjectRef("kimi-k3", ("Kimi K3", "K3")),
]

PARAGRAPHS = [
    "A Moonshot AI lançou o Kimi K3.1 Pro em 23 de outubro, com 2,8 trilhões de parâmetros no "
    "total e 104 bi ativos por token. A janela de contexto chega a 1 milhão de tokens.",
    "O preço ficou em US$ 2,00 por milhão de tokens de entrada e US$ 10,00 por milhão de tokens "
    "de saída, um corte de cerca de 33% em relação à geração anterior.",
    "Segundo a Artificial Analysis, o K3.1 Pro ficou em 4º lugar no Intelligence Index com 55 "
    "pontos, atrás do Orion 7.2 com 61 pontos. A Moonshot reporta 65,7% no Terminal-Bench 4.0.",
    "Um post da Cerebras descreve o Kimi K3 rodando em 59 wafers WSE-3T, com pesos em 4 bits e "
    "vazão de 1.000 a 2.000+ tokens por segundo, segundo a própria empresa.",
    "A variante Highspeed é de 2 a 3 vezes mais rápida e custa o dobro. Os pesos abertos estão "
    "prometidos para antes de 4 de novembro, e a licença ainda não foi anunciada.",
    "Times que operam agentes de código longos devem medir o custo por tarefa concluída, e não "
    "por token, antes de migrar cargas de produção para qualquer modelo novo do mercado.",
    "Um concorrente denso de 400B não chega perto em custo. Em muitos testes, o rival Vega 3.5 "
    "marcou 69%, mas tem acesso restrito e preço mais alto por milhão de tokens.",
]


# Prose between the figures, as in a real article (the seeds hold 26-43 candidates per 10 KB).
PROSE = [
    "Para quem opera agentes em produção, a escolha do modelo depende menos do ranking e mais "
    "do comportamento em tarefas longas, da estabilidade das chamadas de ferramenta e do custo "
    "real de cada tarefa concluída, que raramente coincide com o preço de tabela.",
    "A arquitetura de mistura de especialistas permite que só uma fração da rede trabalhe em "
    "cada passo, o que reduz o custo de inferência sem reduzir a capacidade de conhecimento. "
    "O desafio passa a ser o balanceamento de carga entre especialistas e o uso de memória.",
    "Provedores de inferência costumam disputar modelos abertos logo após a publicação dos "
    "pesos, o que tende a derrubar preços. Ainda assim, servir um modelo desse porte exige "
    "clusters dedicados, interconexão rápida e engenharia cuidadosa de cache.",
    "Vale testar com a própria carga antes de migrar: registre a taxa de sucesso, o retrabalho "
    "e o tempo até a primeira resposta, e compare com o que o sistema atual entrega hoje. "
    "Benchmarks públicos ajudam a filtrar candidatos, mas não substituem essa medição.",
]


def build_article(target_bytes: int = 10_000, dense: bool = False) -> str:
    """Paragraphs repeated until the UTF-8 text reaches ``target_bytes``; ``dense`` uses only
    figure-packed paragraphs (a stress case), otherwise figures alternate with prose."""
    prose = (PROSE * 2)[: len(PARAGRAPHS)]
    pool = (
        PARAGRAPHS if dense else [p for pair in zip(PARAGRAPHS, prose, strict=True) for p in pair]
    )
    parts: list[str] = []
    i = 0
    while len("\n\n".join(parts).encode()) < target_bytes:
        parts.append(pool[i % len(pool)])
        i += 1
    return "\n\n".join(parts)


def main(runs: int = 200) -> None:
    for dense in (False, True):
        measure(build_article(dense=dense), runs, "figure-dense" if dense else "article")


def measure(text: str, runs: int, label: str) -> None:
    """Print the median wall and CPU milliseconds of ``runs`` extractions of ``text``."""
    published = dt.date(2026, 10, 27)
    n = len(
        extract(text, SUBJECTS, lang="pt", published=published, default_subject="kimi-k3.1-pro")
    )
    wall, cpu = [], []
    for _ in range(runs):
        t0, c0 = time.perf_counter(), time.process_time()
        extract(text, SUBJECTS, lang="pt", published=published, default_subject="kimi-k3.1-pro")
        wall.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
    # CPU time is printed too: on a shared, loaded machine wall time includes waiting.
    print(
        f"{label} {len(text.encode())} bytes, {n} candidates, {runs} runs: "
        f"median {statistics.median(wall):.1f} ms wall (min {min(wall):.1f}), "
        f"median {statistics.median(cpu):.1f} ms CPU; load average {os.getloadavg()[0]:.1f}"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
