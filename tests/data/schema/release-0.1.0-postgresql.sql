--
-- PostgreSQL database dump
--


-- Dumped from database version 15.18 (Debian 15.18-0+deb12u1)
-- Dumped by pg_dump version 15.18 (Debian 15.18-0+deb12u1)

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: claim; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.claim (
    id integer NOT NULL,
    key character varying NOT NULL,
    subject_id integer NOT NULL,
    attribute character varying NOT NULL,
    qualifiers_json character varying NOT NULL,
    value_json character varying NOT NULL,
    raw_text character varying,
    source_id integer NOT NULL,
    claimant character varying,
    locator character varying,
    stated_date character varying,
    note character varying,
    created_at timestamp with time zone NOT NULL,
    origin character varying
);


--
-- Name: claim_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.claim_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: claim_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.claim_id_seq OWNED BY public.claim.id;


--
-- Name: delivery; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.delivery (
    id integer NOT NULL,
    event_id integer NOT NULL,
    subscription character varying NOT NULL,
    state character varying NOT NULL,
    attempts integer NOT NULL,
    next_attempt_at timestamp with time zone,
    last_attempt_at timestamp with time zone,
    delivered_at timestamp with time zone,
    last_error character varying,
    sent_chars integer,
    parts integer NOT NULL
);


--
-- Name: delivery_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.delivery_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: delivery_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.delivery_id_seq OWNED BY public.delivery.id;


--
-- Name: discrepancy; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.discrepancy (
    id integer NOT NULL,
    key character varying NOT NULL,
    subject_id integer NOT NULL,
    attribute character varying NOT NULL,
    rule character varying NOT NULL,
    claim_ids_json character varying NOT NULL,
    observation_ids_json character varying NOT NULL,
    state character varying NOT NULL,
    reason character varying NOT NULL,
    note character varying,
    opened_at timestamp with time zone NOT NULL,
    closed_at timestamp with time zone
);


--
-- Name: discrepancy_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.discrepancy_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: discrepancy_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.discrepancy_id_seq OWNED BY public.discrepancy.id;


--
-- Name: event; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.event (
    id integer NOT NULL,
    key character varying NOT NULL,
    kind character varying NOT NULL,
    audience character varying NOT NULL,
    subject_id integer,
    watch_id integer,
    title character varying NOT NULL,
    detail_json character varying NOT NULL,
    created_at timestamp with time zone NOT NULL
);


--
-- Name: event_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.event_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: event_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.event_id_seq OWNED BY public.event.id;


--
-- Name: observation; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.observation (
    id integer NOT NULL,
    subject_id integer NOT NULL,
    attribute character varying NOT NULL,
    qualifiers_json character varying NOT NULL,
    value_json character varying NOT NULL,
    value_key character varying NOT NULL,
    watch_id integer,
    snapshot_id integer,
    source_url character varying,
    first_seen timestamp with time zone NOT NULL,
    last_seen timestamp with time zone NOT NULL,
    current boolean NOT NULL
);


--
-- Name: observation_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.observation_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: observation_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.observation_id_seq OWNED BY public.observation.id;


--
-- Name: schedulerlock; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.schedulerlock (
    name character varying NOT NULL,
    owner character varying NOT NULL,
    pid integer NOT NULL,
    host character varying NOT NULL,
    acquired_at timestamp with time zone NOT NULL,
    heartbeat_at timestamp with time zone NOT NULL,
    expires_at timestamp with time zone NOT NULL
);


--
-- Name: schedulestate; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.schedulestate (
    job_id character varying NOT NULL,
    next_run_at timestamp with time zone,
    last_started_at timestamp with time zone,
    last_finished_at timestamp with time zone,
    last_outcome character varying,
    last_error character varying
);


--
-- Name: schemaversion; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.schemaversion (
    version integer NOT NULL,
    name character varying NOT NULL,
    applied_at timestamp with time zone NOT NULL
);


--
-- Name: schemaversion_version_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.schemaversion_version_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: schemaversion_version_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.schemaversion_version_seq OWNED BY public.schemaversion.version;


--
-- Name: snapshot; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.snapshot (
    id integer NOT NULL,
    watch_id integer,
    url character varying NOT NULL,
    status integer NOT NULL,
    headers_json character varying NOT NULL,
    fetched_at timestamp with time zone NOT NULL,
    sha256 character varying NOT NULL,
    size integer NOT NULL
);


--
-- Name: snapshot_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.snapshot_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: snapshot_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.snapshot_id_seq OWNED BY public.snapshot.id;


--
-- Name: source; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.source (
    id integer NOT NULL,
    key character varying NOT NULL,
    url character varying,
    title character varying NOT NULL,
    publisher character varying,
    published character varying,
    published_precision character varying,
    language character varying,
    kind character varying NOT NULL
);


--
-- Name: source_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.source_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: source_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.source_id_seq OWNED BY public.source.id;


--
-- Name: subject; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.subject (
    id integer NOT NULL,
    slug character varying NOT NULL,
    name character varying NOT NULL,
    organization character varying,
    family character varying,
    hub_org character varying,
    description character varying
);


--
-- Name: subject_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.subject_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: subject_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.subject_id_seq OWNED BY public.subject.id;


--
-- Name: subjectalias; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.subjectalias (
    id integer NOT NULL,
    subject_id integer NOT NULL,
    namespace character varying NOT NULL,
    alias character varying NOT NULL
);


--
-- Name: subjectalias_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.subjectalias_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: subjectalias_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.subjectalias_id_seq OWNED BY public.subjectalias.id;


--
-- Name: subjectvariant; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.subjectvariant (
    id integer NOT NULL,
    subject_id integer NOT NULL,
    name character varying NOT NULL
);


--
-- Name: subjectvariant_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.subjectvariant_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: subjectvariant_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.subjectvariant_id_seq OWNED BY public.subjectvariant.id;


--
-- Name: verdict; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.verdict (
    id integer NOT NULL,
    claim_id integer NOT NULL,
    status character varying NOT NULL,
    reason character varying NOT NULL,
    evidence_json character varying NOT NULL,
    as_of timestamp with time zone,
    checked_at timestamp with time zone NOT NULL
);


--
-- Name: verdict_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.verdict_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: verdict_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.verdict_id_seq OWNED BY public.verdict.id;


--
-- Name: watch; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.watch (
    id integer NOT NULL,
    name character varying NOT NULL,
    adapter character varying NOT NULL,
    url character varying NOT NULL,
    params_json character varying NOT NULL,
    interval_minutes integer NOT NULL,
    state character varying NOT NULL,
    consecutive_failures integer NOT NULL,
    last_run timestamp with time zone,
    last_success timestamp with time zone,
    last_error character varying,
    last_error_kind character varying,
    failing_since timestamp with time zone,
    etag character varying,
    last_modified character varying
);


--
-- Name: watch_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.watch_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: watch_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.watch_id_seq OWNED BY public.watch.id;


--
-- Name: claim id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.claim ALTER COLUMN id SET DEFAULT nextval('public.claim_id_seq'::regclass);


--
-- Name: delivery id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.delivery ALTER COLUMN id SET DEFAULT nextval('public.delivery_id_seq'::regclass);


--
-- Name: discrepancy id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.discrepancy ALTER COLUMN id SET DEFAULT nextval('public.discrepancy_id_seq'::regclass);


--
-- Name: event id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.event ALTER COLUMN id SET DEFAULT nextval('public.event_id_seq'::regclass);


--
-- Name: observation id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.observation ALTER COLUMN id SET DEFAULT nextval('public.observation_id_seq'::regclass);


--
-- Name: schemaversion version; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.schemaversion ALTER COLUMN version SET DEFAULT nextval('public.schemaversion_version_seq'::regclass);


--
-- Name: snapshot id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.snapshot ALTER COLUMN id SET DEFAULT nextval('public.snapshot_id_seq'::regclass);


--
-- Name: source id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.source ALTER COLUMN id SET DEFAULT nextval('public.source_id_seq'::regclass);


--
-- Name: subject id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.subject ALTER COLUMN id SET DEFAULT nextval('public.subject_id_seq'::regclass);


--
-- Name: subjectalias id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.subjectalias ALTER COLUMN id SET DEFAULT nextval('public.subjectalias_id_seq'::regclass);


--
-- Name: subjectvariant id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.subjectvariant ALTER COLUMN id SET DEFAULT nextval('public.subjectvariant_id_seq'::regclass);


--
-- Name: verdict id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.verdict ALTER COLUMN id SET DEFAULT nextval('public.verdict_id_seq'::regclass);


--
-- Name: watch id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.watch ALTER COLUMN id SET DEFAULT nextval('public.watch_id_seq'::regclass);


--
-- Data for Name: claim; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.claim VALUES (1, '0fd7c8c507034910802bdf15b9ee4fdce30e840c2364e600638988d70e9aad9f', 3, 'total_params', '{}', '{"approx":false,"high":1500000000000,"kind":"quantity","low":500000000000,"precision":"1","relation":null,"unit":"params","value":1000000000000}', '1T', 1, 'Moonshot AI', NULL, NULL, NULL, '2026-12-01 14:31:22+00', 'file:///tmp/olddb/data/claims/kimi-k2-thinking-card.toml');
INSERT INTO public.claim VALUES (2, '6ef692c313fbf24ad55d254cee3bead13f3aef37420a0fc9edaba5d65a925395', 3, 'active_params', '{}', '{"approx":false,"high":32500000000,"kind":"quantity","low":31500000000,"precision":"1","relation":null,"unit":"params","value":32000000000}', '32B', 1, 'Moonshot AI', NULL, NULL, NULL, '2026-12-01 14:31:22+00', 'file:///tmp/olddb/data/claims/kimi-k2-thinking-card.toml');
INSERT INTO public.claim VALUES (3, '0b9317898ea7992615492611379148525a1588ee780cabafcd9680ff265b7d1b', 3, 'context_window', '{}', '{"approx":false,"high":262144,"kind":"quantity","low":262144,"relation":null,"unit":"tokens","value":262144}', '256K', 1, 'Moonshot AI', NULL, NULL, NULL, '2026-12-01 14:31:22+00', 'file:///tmp/olddb/data/claims/kimi-k2-thinking-card.toml');
INSERT INTO public.claim VALUES (4, '652cb9d148369f4dcd4605fb209693e8f5f1dfabeb5779ba7c60f3dac9d7002d', 3, 'weights_precision_bits', '{}', '{"approx":false,"high":4.5,"kind":"quantity","low":3.5,"precision":"1","relation":null,"unit":"bits","value":4}', 'native INT4', 1, 'Moonshot AI', NULL, NULL, NULL, '2026-12-01 14:31:22+00', 'file:///tmp/olddb/data/claims/kimi-k2-thinking-card.toml');
INSERT INTO public.claim VALUES (5, 'ddf776f028c563eb472b7e156b0e3105aaa74cac01cb3ea2018f97ac04dd5174', 3, 'license', '{}', '{"approx":false,"high":null,"kind":"text","low":null,"relation":null,"unit":null,"value":"modified-mit"}', 'Modified MIT License', 1, 'Moonshot AI', NULL, NULL, NULL, '2026-12-01 14:31:22+00', 'file:///tmp/olddb/data/claims/kimi-k2-thinking-card.toml');
INSERT INTO public.claim VALUES (6, '7258c658a8cb84df487476990f7ca40e80ea1a79e2d1abd6ae01e6eef42c3cd8', 3, 'release_date', '{}', '{"approx":false,"high":null,"kind":"date","low":null,"precision":"day","relation":"on","unit":null,"value":"2025-11-06"}', '2025-11-06', 1, 'Moonshot AI', NULL, NULL, NULL, '2026-12-01 14:31:22+00', 'file:///tmp/olddb/data/claims/kimi-k2-thinking-card.toml');
INSERT INTO public.claim VALUES (7, 'e5b7d2a466d2da905edab1afbfa54d4648d7cd3749b5316b057b56284198dddd', 3, 'weights_release_date', '{}', '{"approx":false,"high":null,"kind":"date","low":null,"precision":"day","relation":"on","unit":null,"value":"2025-11-06"}', '2025-11-06', 1, 'Moonshot AI', NULL, NULL, NULL, '2026-12-01 14:31:22+00', 'file:///tmp/olddb/data/claims/kimi-k2-thinking-card.toml');
INSERT INTO public.claim VALUES (8, '0518de31cbed47dcc32ad7512509b46ee9db284128c81280015c4ae69e75d673', 1, 'release_date', '{}', '{"approx":false,"high":null,"kind":"date","low":null,"precision":"day","relation":"on","unit":null,"value":"2026-10-23"}', '23 de outubro', 2, 'Moonshot AI', 'chars 390-403', NULL, NULL, '2026-12-01 14:31:22+00', 'file:///tmp/olddb/data/claims/maquinaweb-k31-cerebras.toml');
INSERT INTO public.claim VALUES (9, 'be310c6a13b8e11f14bf7cd6e0d6c01b35ab60c1303ec436a04310dee0ebba57', 1, 'price_change_pct', '{"relative_to":"kimi-k3"}', '{"approx":true,"high":-29.7,"kind":"quantity","low":-36.3,"precision":"1","relation":null,"unit":"percent","value":-33}', 'cerca de 33%', 2, 'Moonshot AI', 'chars 431-443', NULL, NULL, '2026-12-01 14:31:22+00', 'file:///tmp/olddb/data/claims/maquinaweb-k31-cerebras.toml');
INSERT INTO public.claim VALUES (10, '4ebb076915314ef40c8824a04c97e15b5ba7b0ba2ef7073ccf0a091f4bf755cb', 1, 'total_params', '{}', '{"approx":false,"high":2850000000000,"kind":"quantity","low":2750000000000,"precision":"0.1","relation":null,"unit":"params","value":2800000000000}', '2,8 trilhões de parâmetros totais', 2, 'Moonshot AI', 'chars 928-961', NULL, NULL, '2026-12-01 14:31:22+00', 'file:///tmp/olddb/data/claims/maquinaweb-k31-cerebras.toml');
INSERT INTO public.claim VALUES (11, '9f74402d0abe4957b6f3d8cc15734f7c6f48385736db1489caee5216c5e20336', 1, 'active_params', '{}', '{"approx":false,"high":104500000000,"kind":"quantity","low":103500000000,"precision":"1","relation":null,"unit":"params","value":104000000000}', '104 bilhões ativos', 2, 'Moonshot AI', 'chars 964-982', NULL, NULL, '2026-12-01 14:31:22+00', 'file:///tmp/olddb/data/claims/maquinaweb-k31-cerebras.toml');
INSERT INTO public.claim VALUES (12, 'aea5b7ef6a35f77dd72fc894f2437e70ecbae702fe20353a0a1fab539efb26b5', 1, 'context_window', '{}', '{"approx":false,"high":1500000,"kind":"quantity","low":500000,"precision":"1","relation":null,"unit":"tokens","value":1000000}', '1 milhão de tokens', 2, 'Moonshot AI', 'chars 1374-1392', NULL, NULL, '2026-12-01 14:31:22+00', 'file:///tmp/olddb/data/claims/maquinaweb-k31-cerebras.toml');
INSERT INTO public.claim VALUES (13, '1ada1bff65340d38b7bfd33c928f87e1f9f3434f9e70a68194c6dba0ab9ce91d', 1, 'benchmark_score', '{"benchmark":"Artificial Analysis Intelligence Index"}', '{"approx":false,"high":55.5,"kind":"quantity","low":54.5,"precision":"1","relation":null,"unit":"points","value":55}', '55 pontos', 2, 'Artificial Analysis', 'chars 1518-1527', NULL, NULL, '2026-12-01 14:31:22+00', 'file:///tmp/olddb/data/claims/maquinaweb-k31-cerebras.toml');
INSERT INTO public.claim VALUES (14, '7348901383a99ab9c5a25ca04664d18800e0869071dd4e6c8cad808ae2a9110c', 1, 'leaderboard_rank', '{"leaderboard":"Artificial Analysis Intelligence Index"}', '{"approx":false,"high":4.5,"kind":"quantity","low":3.5,"precision":"1","relation":null,"unit":"rank","value":4}', '4º lugar', 2, 'Artificial Analysis', 'chars 1539-1547', NULL, NULL, '2026-12-01 14:31:22+00', 'file:///tmp/olddb/data/claims/maquinaweb-k31-cerebras.toml');
INSERT INTO public.claim VALUES (15, 'f3ce4c43befdd1b248cf524b5415b348103a6752c07ba970fc6a5e35a55a7bd3', 1, 'benchmark_score', '{"benchmark":"Terminal-Bench","version":"4.0"}', '{"approx":false,"high":65.75,"kind":"quantity","low":65.65,"precision":"0.1","relation":null,"unit":"percent","value":65.7}', '65,7% no Terminal-Bench 4.0', 2, 'Moonshot AI', 'chars 1595-1622', NULL, NULL, '2026-12-01 14:31:22+00', 'file:///tmp/olddb/data/claims/maquinaweb-k31-cerebras.toml');
INSERT INTO public.claim VALUES (16, 'e8c7f6472c091944ba946e0758cdde0b0fe329d85206e6c140f646cb05e22c12', 1, 'price_output_usd_per_mtok', '{}', '{"approx":false,"high":10.5,"kind":"quantity","low":9.5,"precision":"1","relation":null,"unit":"usd_per_mtok","value":10}', 'US 10 por milhão de saída', 2, 'Moonshot AI', 'chars 1888-1913', NULL, 'The article drops the dollar sign (''US 10''); read as USD.', '2026-12-01 14:31:22+00', 'file:///tmp/olddb/data/claims/maquinaweb-k31-cerebras.toml');
INSERT INTO public.claim VALUES (17, 'a9b0fd844c45faebd884fb3b9722d2ba7ab7001fb53f533e9680180dfc99c6e6', 1, 'weights_release_date', '{}', '{"approx":false,"high":null,"kind":"date","low":null,"precision":"day","relation":"before","unit":null,"value":"2026-11-04"}', 'antes de 4 de novembro', 2, 'Moonshot AI', 'chars 2061-2083', NULL, NULL, '2026-12-01 14:31:22+00', 'file:///tmp/olddb/data/claims/maquinaweb-k31-cerebras.toml');
INSERT INTO public.claim VALUES (18, 'c67d89c2720162b40e4d411a52564e3296580a40b7e306600d60f252fb87b7fe', 2, 'hardware_units', '{"hardware":"Cerebras WSE-3T"}', '{"approx":false,"high":59.5,"kind":"quantity","low":58.5,"precision":"1","relation":null,"unit":"wafers","value":59}', '59 wafers WSE-3T', 2, 'Cerebras', 'chars 588-604', NULL, NULL, '2026-12-01 14:31:22+00', 'file:///tmp/olddb/data/claims/maquinaweb-k31-cerebras.toml');
INSERT INTO public.claim VALUES (19, '8a4f3e2888a5e88f26971cfd79aace7cd4f2aa1ed32412d5b482fe8610411335', 2, 'output_tokens_per_second', '{"hardware":"Cerebras WSE-3T"}', '{"approx":false,"high":2000,"kind":"range","low":1000,"open_high":true,"relation":null,"unit":"tokens_per_second","value":null}', '1.000 a 2.000+ tokens por segundo', 2, 'Cerebras', 'chars 633-666', NULL, 'No batch size, context length or per-user figure stated.', '2026-12-01 14:31:22+00', 'file:///tmp/olddb/data/claims/maquinaweb-k31-cerebras.toml');
INSERT INTO public.claim VALUES (20, '164e501286d9a9d0dad11af30310a9e7c13cf23ae09354f5e21a9a130a0b3b28', 2, 'weights_precision_bits', '{"hardware":"Cerebras WSE-3T"}', '{"approx":false,"high":4.5,"kind":"quantity","low":3.5,"precision":"1","relation":null,"unit":"bits","value":4}', '4 bits', 2, 'Cerebras', 'chars 3203-3209', NULL, NULL, '2026-12-01 14:31:22+00', 'file:///tmp/olddb/data/claims/maquinaweb-k31-cerebras.toml');
INSERT INTO public.claim VALUES (21, '1222047b0eb5e1881c98de49b6cddab7c918cdeef6d140e09fa570979497ad66', 2, 'total_params', '{}', '{"approx":true,"high":4000000000000,"kind":"quantity","low":2000000000000,"precision":"1","relation":null,"unit":"params","value":3000000000000}', 'cerca de 3 trilhões de parâmetros', 2, 'Cerebras', 'chars 4274-4307', NULL, NULL, '2026-12-01 14:31:22+00', 'file:///tmp/olddb/data/claims/maquinaweb-k31-cerebras.toml');
INSERT INTO public.claim VALUES (22, 'ff377256925ac992ed48270e7878592c9509ea766e17d163203e0b06e5c98b18', 1, 'total_params', '{}', '{"approx":false,"high":2850000000000,"kind":"quantity","low":2750000000000,"precision":"0.1","relation":null,"unit":"params","value":2800000000000}', '2,8 trilhões de parâmetros totais', 3, 'Moonshot AI', 'chars 1183-1216', NULL, NULL, '2026-12-01 14:31:22+00', 'file:///tmp/olddb/data/claims/opinion-k31-vs-fable.toml');
INSERT INTO public.claim VALUES (23, 'eb3387a284f781691b6455cb617b1e6a1b67d9e9329cbe6fc13aaf79f0a9cd08', 1, 'active_params', '{}', '{"approx":false,"high":104500000000,"kind":"quantity","low":103500000000,"precision":"1","relation":null,"unit":"params","value":104000000000}', '104 bilhões ativos', 3, 'Moonshot AI', 'chars 1218-1236', NULL, NULL, '2026-12-01 14:31:22+00', 'file:///tmp/olddb/data/claims/opinion-k31-vs-fable.toml');
INSERT INTO public.claim VALUES (24, '8281ab08f7989f49a1634ca6480867e3e805bb6dceb19ebb9dfc86be482b8c0b', 1, 'context_window', '{}', '{"approx":false,"high":1500000,"kind":"quantity","low":500000,"precision":"1","relation":null,"unit":"tokens","value":1000000}', '1 milhão de tokens', 3, 'Moonshot AI', 'chars 1259-1277', NULL, NULL, '2026-12-01 14:31:22+00', 'file:///tmp/olddb/data/claims/opinion-k31-vs-fable.toml');
INSERT INTO public.claim VALUES (25, '405d2208e22f040a9d6348a57c72e8b2464312a5775b4b6009b85fb2ee4ea139', 1, 'leaderboard_rank', '{"leaderboard":"Artificial Analysis Intelligence Index"}', '{"approx":false,"high":4.5,"kind":"quantity","low":3.5,"precision":"1","relation":null,"unit":"rank","value":4}', 'quarto no Intelligence Index', 3, 'Artificial Analysis', 'chars 1661-1689', NULL, NULL, '2026-12-01 14:31:22+00', 'file:///tmp/olddb/data/claims/opinion-k31-vs-fable.toml');
INSERT INTO public.claim VALUES (26, '8ca85a82d6be72e91e06e4ee26da71727d7d65f85a0bc1b4732a6d34058e8b8c', 1, 'benchmark_score', '{"benchmark":"Artificial Analysis Intelligence Index"}', '{"approx":false,"high":55.5,"kind":"quantity","low":54.5,"precision":"1","relation":null,"unit":"points","value":55}', '55 pontos', 3, 'Artificial Analysis', 'chars 1694-1703', NULL, NULL, '2026-12-01 14:31:22+00', 'file:///tmp/olddb/data/claims/opinion-k31-vs-fable.toml');
INSERT INTO public.claim VALUES (27, '3804a8a3b221150a5d8b77e0f1cebd724894d7357f8e6c9d81a6fb4517f627b5', 1, 'leaderboard_rank', '{"leaderboard":"Code Arena WebDev"}', '{"approx":false,"high":8.5,"kind":"quantity","low":7.5,"precision":"1","relation":null,"unit":"rank","value":8}', 'oitavo', 3, 'Code Arena', 'chars 1886-1892', NULL, NULL, '2026-12-01 14:31:22+00', 'file:///tmp/olddb/data/claims/opinion-k31-vs-fable.toml');
INSERT INTO public.claim VALUES (28, 'f7653acf97579921480786a24305900bb203a7ac8d035a478ec1ec72607a02da', 1, 'benchmark_score', '{"benchmark":"Code Arena WebDev"}', '{"approx":false,"high":1692.5,"kind":"quantity","low":1691.5,"precision":"1","relation":null,"unit":"points","value":1692}', '1.692 pontos', 3, 'Code Arena', 'chars 1897-1909', NULL, NULL, '2026-12-01 14:31:22+00', 'file:///tmp/olddb/data/claims/opinion-k31-vs-fable.toml');
INSERT INTO public.claim VALUES (29, 'bdab0fbc47b3fd397716421a1f2ab31f37d1222d36aa3021930c2b23edb47cc1', 2, 'leaderboard_rank', '{"leaderboard":"Code Arena WebDev"}', '{"approx":false,"high":17.5,"kind":"quantity","low":16.5,"precision":"1","relation":null,"unit":"rank","value":17}', 'nove posições acima do K3', 3, 'Code Arena', 'chars 1911-1936', NULL, 'Derived: K3.1 Pro is 8th and nine places above K3.', '2026-12-01 14:31:22+00', 'file:///tmp/olddb/data/claims/opinion-k31-vs-fable.toml');
INSERT INTO public.claim VALUES (30, '01f2809fe500cb7258f6b352921ca41b955f67f08f3d1ea7a5fd15343aa4c968', 1, 'benchmark_score', '{"benchmark":"Cyber Index"}', '{"approx":false,"high":64.5,"kind":"quantity","low":63.5,"precision":"1","relation":null,"unit":"percent","value":64}', '64 por cento', 3, 'Cyber Index', 'chars 1961-1973', NULL, NULL, '2026-12-01 14:31:22+00', 'file:///tmp/olddb/data/claims/opinion-k31-vs-fable.toml');
INSERT INTO public.claim VALUES (31, '2a04828e791552ff2882fd9fa29dedbce6f6e39f55013a57c91b7638a85ac431', 1, 'speedup_factor', '{"relative_to":"Standard","variant":"Highspeed"}', '{"approx":false,"high":3,"kind":"range","low":2,"open_high":false,"relation":null,"unit":"times","value":null}', '2 a 3 vezes mais rápida', 3, 'Moonshot AI', 'chars 3970-3993', NULL, NULL, '2026-12-01 14:31:22+00', 'file:///tmp/olddb/data/claims/opinion-k31-vs-fable.toml');
INSERT INTO public.claim VALUES (32, '21b9629dc00a98e1a25bc2dcd0679bada0aa742482d2018d3773f75f53e9b5e0', 1, 'price_factor', '{"relative_to":"Standard","variant":"Highspeed"}', '{"approx":true,"high":3,"kind":"quantity","low":1,"precision":"1","relation":null,"unit":"times","value":2}', 'cerca de duas vezes mais', 3, 'Moonshot AI', 'chars 4004-4028', NULL, 'According to launch reports; no price table given.', '2026-12-01 14:31:22+00', 'file:///tmp/olddb/data/claims/opinion-k31-vs-fable.toml');
INSERT INTO public.claim VALUES (33, '8184222a1d65a7a74067e8266aea1c8a7041cb42f6add226e8536289537ea02f', 1, 'weights_release_date', '{}', '{"approx":false,"high":null,"kind":"date","low":null,"precision":"day","relation":"on","unit":null,"value":"2026-11-04"}', 'prometido para 4 de novembro de 2026', 3, 'Moonshot AI', 'chars 2275-2311', NULL, NULL, '2026-12-01 14:31:22+00', 'file:///tmp/olddb/data/claims/opinion-k31-vs-fable.toml');
INSERT INTO public.claim VALUES (34, '826ac581f96c96668db6eb6c15eac1933f28878e8d518d370aea509dd78532f0', 1, 'total_params', '{}', '{"approx":false,"high":2850000000000,"kind":"quantity","low":2750000000000,"precision":"0.1","relation":null,"unit":"params","value":2800000000000}', '2,8 trilhões (2.8T)', 4, 'Moonshot AI', 'chars 380-399', NULL, NULL, '2026-12-01 14:31:22+00', 'file:///tmp/olddb/data/claims/report-k31-launch.toml');
INSERT INTO public.claim VALUES (35, '9b7315c869c08167b9287122d24a4ad287222a8841654fd51135d3d3dcd9bceb', 1, 'active_params', '{}', '{"approx":false,"high":104500000000,"kind":"quantity","low":103500000000,"precision":"1","relation":null,"unit":"params","value":104000000000}', '104 bilhões (104B)', 4, 'Moonshot AI', 'chars 517-535', NULL, NULL, '2026-12-01 14:31:22+00', 'file:///tmp/olddb/data/claims/report-k31-launch.toml');
INSERT INTO public.claim VALUES (36, '6e58e211ca8110b73097fa028ae85579ece77ff1bb24469a29cbb9dbb6673c3e', 1, 'context_window', '{}', '{"approx":false,"high":1500000,"kind":"quantity","low":500000,"precision":"1","relation":null,"unit":"tokens","value":1000000}', '1 milhão de tokens', 4, 'Moonshot AI', 'chars 741-759', NULL, NULL, '2026-12-01 14:31:22+00', 'file:///tmp/olddb/data/claims/report-k31-launch.toml');
INSERT INTO public.claim VALUES (37, 'f3854e01b55bba3563682062edbe4a7e8bdd0d1852c45be99dd9ea96746d6acc', 1, 'benchmark_score', '{"benchmark":"Terminal-Bench","version":"3.0"}', '{"approx":false,"high":65.75,"kind":"quantity","low":65.65,"precision":"0.1","relation":null,"unit":"percent","value":65.7}', '65,7% de precisão no Terminal-Bench 3.0', 4, 'Moonshot AI', 'chars 1003-1042', NULL, NULL, '2026-12-01 14:31:22+00', 'file:///tmp/olddb/data/claims/report-k31-launch.toml');
INSERT INTO public.claim VALUES (38, '3bc9769618e69055978ee60cbccc3ca28c002186577f653a35e53ef05198abac', 1, 'price_input_usd_per_mtok', '{}', '{"approx":false,"high":2.005,"kind":"quantity","low":1.995,"precision":"0.01","relation":null,"unit":"usd_per_mtok","value":2}', '2,00 dólares por milhão de tokens de entrada', 4, 'Moonshot AI', 'chars 1344-1388', NULL, NULL, '2026-12-01 14:31:22+00', 'file:///tmp/olddb/data/claims/report-k31-launch.toml');
INSERT INTO public.claim VALUES (39, '8264c535bf0db22d8e5fd120e3639ca4a9f12790bc7db70c99b916714e1538a8', 1, 'price_output_usd_per_mtok', '{}', '{"approx":false,"high":10.005,"kind":"quantity","low":9.995,"precision":"0.01","relation":null,"unit":"usd_per_mtok","value":10}', '10,00 dólares por milhão de tokens de saída', 4, 'Moonshot AI', 'chars 1399-1442', NULL, NULL, '2026-12-01 14:31:22+00', 'file:///tmp/olddb/data/claims/report-k31-launch.toml');
INSERT INTO public.claim VALUES (40, '541bbe97f96297b4d28220e029ca0ea7c1b762cac43d787b8d2a2a14cc291dc5', 1, 'weights_release_date', '{}', '{"approx":false,"high":null,"kind":"date","low":null,"precision":"day","relation":"on","unit":null,"value":"2026-11-04"}', 'dia 4 de novembro de 2026', 4, 'Moonshot AI', 'chars 1598-1623', NULL, NULL, '2026-12-01 14:31:22+00', 'file:///tmp/olddb/data/claims/report-k31-launch.toml');


--
-- Data for Name: delivery; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.delivery VALUES (1, 1, 'json://127.0.0.1:9/hook', 'delivered', 1, NULL, NULL, NULL, NULL, NULL, 1);


--
-- Data for Name: discrepancy; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.discrepancy VALUES (1, 'c8f62c6ec804a83abeba19dd930517d9a84b8d95c288db5993d8ce77ce90f14e', 1, 'benchmark_score', 'same_value_different_version', '[15,37]', '[]', 'open', '65.7% reported for Terminal-Bench 4.0 by Moonshot AI via Máquina Web and for Terminal-Bench 3.0 by Moonshot AI via “Kimi K3.1 Pro launch: architecture, pricing…”: one of the versions is wrong', NULL, '2026-11-28 06:00:00+00', NULL);
INSERT INTO public.discrepancy VALUES (2, 'f6a6fea68d2a02e7a3128f9da69c25375ee1bd3c19d9c0c072c0a13689c984d9', 1, 'weights_release_date', 'date_relation_mismatch', '[17,33,40]', '[]', 'open', '“before 2026-11-04” vs “on 2026-11-04”: different promises (last day 2026-11-03 vs 2026-11-04) (Moonshot AI via Máquina Web vs Moonshot AI via “Kimi 3.1 Pro: 2.8T open weights against Fable 5.1” and “Kimi K3.1 Pro launch: architecture, pricing…”)', NULL, '2026-11-28 06:00:00+00', NULL);
INSERT INTO public.discrepancy VALUES (3, '1e6b0a0fde10e780cb968fb31b8f683dbe815df3f47063e1c07a80e307b2d4ba', 2, 'total_params', 'different_subject', '[10,21]', '[]', 'dismissed', 'not a conflict: different subjects (kimi-k3.1-pro vs kimi-k3): never compared; the intervals overlap anyway (2.8T params (2.75T–2.85T params) vs about 3T params (2T–4T params))', 'not comparable: different subjects', '2026-11-28 06:00:00+00', '2026-11-28 06:00:00+00');


--
-- Data for Name: event; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.event VALUES (1, 'b71ce90533e7d680f733066838ffb15e6dcd3959c0fe88d17954ad03ce5f76d7', 'subject_discovered', 'subscriber', 3, 2, 'Kimi K2 Thinking: weights already on Hugging Face at the first check (moonshotai/Kimi-K2-Thinking)', '{"at_first_check":true,"created_at":"2025-11-04T08:25:31.000Z","first_seen":"2026-11-28T06:00:00+00:00","repo":"moonshotai/Kimi-K2-Thinking","summary":"moonshotai/Kimi-K2-Thinking was already listed at the first check (repo created 2025-11-04)"}', '2026-11-28 06:00:00+00');
INSERT INTO public.event VALUES (2, '363a30ae338175d0fa7baa3176a02adf78dccac14e24dba87e572ce3b848e5ec', 'verdict_changed', 'subscriber', 1, NULL, 'Kimi K3.1 Pro: Benchmark score 65.7% [benchmark: Terminal-Bench, version: 4.0] (Moonshot AI via Máquina Web) is disputed', '{"as_of":null,"claim":"f3ce4c43befdd1b248cf524b5415b348103a6752c07ba970fc6a5e35a55a7bd3","from":null,"reason":"no observation; sources disagree: the same score reported for two versions of a benchmark: 65.7% reported for Terminal-Bench 4.0 by Moonshot AI via Máquina Web and for Terminal-Bench 3.0 by Moonshot AI via “Kimi K3.1 Pro launch: architecture, pricing…”: one of the versions is wrong","to":"disputed"}', '2026-11-28 06:00:00+00');
INSERT INTO public.event VALUES (3, '90ef064ad21c3d52b86cf2b6c11eb44bbd423e6961e1bcf993e1c685ea8df4f1', 'verdict_changed', 'subscriber', 1, NULL, 'Kimi K3.1 Pro: Open-weights date before 2026-11-04 (Moonshot AI via Máquina Web) is overdue', '{"as_of":"2026-11-28T06:00:00+00:00","claim":"a9b0fd844c45faebd884fb3b9722d2ba7ab7001fb53f533e9680180dfc99c6e6","from":null,"reason":"overdue by 25 days as of 2026-11-28 06:00 UTC: promised before 2026-11-04 (deadline 2026-11-03), no weights seen on the hub; sources disagree: the same date with relations that exclude each other, e.g. “before” vs “on”","to":"overdue"}', '2026-11-28 06:00:00+00');
INSERT INTO public.event VALUES (4, 'f513c546ac32b7e78e48c229fe6351d604c6df5610f2dcdb2dcc96833619ffaf', 'verdict_changed', 'subscriber', 1, NULL, 'Kimi K3.1 Pro: Open-weights date on 2026-11-04 (Moonshot AI via “Kimi 3.1 Pro: 2.8T open weights against Fable 5.1”) is overdue', '{"as_of":"2026-11-28T06:00:00+00:00","claim":"8184222a1d65a7a74067e8266aea1c8a7041cb42f6add226e8536289537ea02f","from":null,"reason":"overdue by 24 days as of 2026-11-28 06:00 UTC: promised on 2026-11-04 (deadline 2026-11-04), no weights seen on the hub; sources disagree: the same date with relations that exclude each other, e.g. “before” vs “on”","to":"overdue"}', '2026-11-28 06:00:00+00');
INSERT INTO public.event VALUES (5, '34194f1f098528337a9b381318894cba295bda9f71a31a07867de776fa072b33', 'verdict_changed', 'subscriber', 1, NULL, 'Kimi K3.1 Pro: Benchmark score 65.7% [benchmark: Terminal-Bench, version: 3.0] (Moonshot AI via “Kimi K3.1 Pro launch: architecture, pricing…”) is disputed', '{"as_of":null,"claim":"f3854e01b55bba3563682062edbe4a7e8bdd0d1852c45be99dd9ea96746d6acc","from":null,"reason":"no observation; sources disagree: the same score reported for two versions of a benchmark: 65.7% reported for Terminal-Bench 4.0 by Moonshot AI via Máquina Web and for Terminal-Bench 3.0 by Moonshot AI via “Kimi K3.1 Pro launch: architecture, pricing…”: one of the versions is wrong","to":"disputed"}', '2026-11-28 06:00:00+00');
INSERT INTO public.event VALUES (6, '1be6d5d1077f9a0f3a19db1c0bfb88378de12ae5c8075e9127e490b238b19872', 'verdict_changed', 'subscriber', 1, NULL, 'Kimi K3.1 Pro: Open-weights date on 2026-11-04 (Moonshot AI via “Kimi K3.1 Pro launch: architecture, pricing…”) is overdue', '{"as_of":"2026-11-28T06:00:00+00:00","claim":"541bbe97f96297b4d28220e029ca0ea7c1b762cac43d787b8d2a2a14cc291dc5","from":null,"reason":"overdue by 24 days as of 2026-11-28 06:00 UTC: promised on 2026-11-04 (deadline 2026-11-04), no weights seen on the hub; sources disagree: the same date with relations that exclude each other, e.g. “before” vs “on”","to":"overdue"}', '2026-11-28 06:00:00+00');
INSERT INTO public.event VALUES (7, 'e0ca36354390e6eaeb776a4dd86c7e72587c5d3125bfa479c750e04fcbf39ea4', 'discrepancy_opened', 'subscriber', 1, NULL, 'Kimi K3.1 Pro: Benchmark score: the same score reported for two versions of a benchmark (open)', '{"claims":[15,37],"discrepancy":"c8f62c6ec804a83abeba19dd930517d9a84b8d95c288db5993d8ce77ce90f14e","reason":"65.7% reported for Terminal-Bench 4.0 by Moonshot AI via Máquina Web and for Terminal-Bench 3.0 by Moonshot AI via “Kimi K3.1 Pro launch: architecture, pricing…”: one of the versions is wrong","rule":"same_value_different_version","state":"open"}', '2026-11-28 06:00:00+00');
INSERT INTO public.event VALUES (8, 'f409ed65f5871b2ce963ec651a90859eb188a0fea2a42b22b383b02602b52046', 'discrepancy_opened', 'subscriber', 1, NULL, 'Kimi K3.1 Pro: Open-weights date: the same date with relations that exclude each other, e.g. “before” vs “on” (open)', '{"claims":[17,33,40],"discrepancy":"f6a6fea68d2a02e7a3128f9da69c25375ee1bd3c19d9c0c072c0a13689c984d9","reason":"“before 2026-11-04” vs “on 2026-11-04”: different promises (last day 2026-11-03 vs 2026-11-04) (Moonshot AI via Máquina Web vs Moonshot AI via “Kimi 3.1 Pro: 2.8T open weights against Fable 5.1” and “Kimi K3.1 Pro launch: architecture, pricing…”)","rule":"date_relation_mismatch","state":"open"}', '2026-11-28 06:00:00+00');


--
-- Data for Name: observation; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.observation VALUES (1, 3, 'weights_available', '{"repo":"moonshotai/Kimi-K2-Thinking"}', '{"approx":false,"extra":{"created_at":"2025-11-04T08:25:31.000Z"},"high":null,"kind":"boolean","low":null,"relation":null,"unit":null,"value":true}', '[(''approx'', False), (''high'', None), (''kind'', ''boolean''), (''low'', None), (''relation'', None), (''unit'', None), (''value'', True)]', 2, 1, 'https://huggingface.co/api/models/moonshotai/Kimi-K2-Thinking', '2026-11-28 06:00:00+00', '2026-11-28 06:00:00+00', true);
INSERT INTO public.observation VALUES (2, 3, 'license', '{"repo":"moonshotai/Kimi-K2-Thinking"}', '{"approx":false,"high":null,"kind":"text","low":null,"relation":null,"unit":null,"value":"modified-mit"}', '[(''approx'', False), (''high'', None), (''kind'', ''text''), (''low'', None), (''relation'', None), (''unit'', None), (''value'', ''modified-mit'')]', 2, 1, 'https://huggingface.co/api/models/moonshotai/Kimi-K2-Thinking', '2026-11-28 06:00:00+00', '2026-11-28 06:00:00+00', true);
INSERT INTO public.observation VALUES (3, 3, 'gated', '{"repo":"moonshotai/Kimi-K2-Thinking"}', '{"approx":false,"high":null,"kind":"text","low":null,"relation":null,"unit":null,"value":"false"}', '[(''approx'', False), (''high'', None), (''kind'', ''text''), (''low'', None), (''relation'', None), (''unit'', None), (''value'', ''false'')]', 2, 1, 'https://huggingface.co/api/models/moonshotai/Kimi-K2-Thinking', '2026-11-28 06:00:00+00', '2026-11-28 06:00:00+00', true);
INSERT INTO public.observation VALUES (4, 3, 'repo_created', '{"repo":"moonshotai/Kimi-K2-Thinking"}', '{"approx":false,"extra":{"timestamp":"2025-11-04T08:25:31.000Z"},"high":null,"kind":"date","low":null,"precision":"day","relation":"on","unit":null,"value":"2025-11-04"}', '[(''approx'', False), (''high'', None), (''kind'', ''date''), (''low'', None), (''precision'', ''day''), (''relation'', ''on''), (''unit'', None), (''value'', ''2025-11-04'')]', 2, 1, 'https://huggingface.co/api/models/moonshotai/Kimi-K2-Thinking', '2026-11-28 06:00:00+00', '2026-11-28 06:00:00+00', true);
INSERT INTO public.observation VALUES (5, 3, 'hub_params_raw', '{"repo":"moonshotai/Kimi-K2-Thinking"}', '{"approx":false,"extra":{"config":{"architectures":["DeepseekV3ForCausalLM"],"model_type":"kimi_k2"},"parameters":{"BF16":43902267888,"F32":23040,"I32":126835891200},"quant_method":"compressed-tensors","total":170738182128},"high":170738182128,"kind":"quantity","low":170738182128,"relation":null,"unit":"params","value":170738182128}', '[(''approx'', False), (''high'', 170738182128), (''kind'', ''quantity''), (''low'', 170738182128), (''relation'', None), (''unit'', ''params''), (''value'', 170738182128)]', 2, 1, 'https://huggingface.co/api/models/moonshotai/Kimi-K2-Thinking', '2026-11-28 06:00:00+00', '2026-11-28 06:00:00+00', true);
INSERT INTO public.observation VALUES (6, 3, 'total_params', '{"repo":"moonshotai/Kimi-K2-Thinking"}', '{"approx":false,"extra":{"inputs":["model-info safetensors","config.json","model.safetensors.index.json"],"method":"derived_packed","warnings":["weight_shape tensors (I32) cannot be separated from packed weights in per-dtype counts; overcount of a few million at most"]},"high":1026880447728,"kind":"quantity","low":1026880447728,"relation":null,"unit":"params","value":1026880447728}', '[(''approx'', False), (''high'', 1026880447728), (''kind'', ''quantity''), (''low'', 1026880447728), (''relation'', None), (''unit'', ''params''), (''value'', 1026880447728)]', 2, 1, 'https://huggingface.co/api/models/moonshotai/Kimi-K2-Thinking', '2026-11-28 06:00:00+00', '2026-11-28 06:00:00+00', true);
INSERT INTO public.observation VALUES (7, 3, 'context_window', '{"repo":"moonshotai/Kimi-K2-Thinking"}', '{"approx":false,"extra":{"key":"max_position_embeddings"},"high":262144,"kind":"quantity","low":262144,"relation":null,"unit":"tokens","value":262144}', '[(''approx'', False), (''high'', 262144), (''kind'', ''quantity''), (''low'', 262144), (''relation'', None), (''unit'', ''tokens''), (''value'', 262144)]', 2, 2, 'https://huggingface.co/moonshotai/Kimi-K2-Thinking/resolve/main/config.json', '2026-11-28 06:00:00+00', '2026-11-28 06:00:00+00', true);
INSERT INTO public.observation VALUES (8, 3, 'weights_precision_bits', '{"repo":"moonshotai/Kimi-K2-Thinking"}', '{"approx":false,"high":4,"kind":"quantity","low":4,"relation":null,"unit":"bits","value":4}', '[(''approx'', False), (''high'', 4), (''kind'', ''quantity''), (''low'', 4), (''relation'', None), (''unit'', ''bits''), (''value'', 4)]', 2, 2, 'https://huggingface.co/moonshotai/Kimi-K2-Thinking/resolve/main/config.json', '2026-11-28 06:00:00+00', '2026-11-28 06:00:00+00', true);
INSERT INTO public.observation VALUES (9, 3, 'license_text_sha256', '{"repo":"moonshotai/Kimi-K2-Thinking"}', '{"approx":false,"extra":{"bytes":1455,"raw_sha256":"5b6b2346b34a96b606472918f9275b0775b100edb0fa8d3f7419307384c7f603"},"high":null,"kind":"text","low":null,"relation":null,"unit":null,"value":"5a5323f745fa09cf5bba73fb84b0962567e8c9cb35c2f65e9599f73f79c977a5"}', '[(''approx'', False), (''high'', None), (''kind'', ''text''), (''low'', None), (''relation'', None), (''unit'', None), (''value'', ''5a5323f745fa09cf5bba73fb84b0962567e8c9cb35c2f65e9599f73f79c977a5'')]', 2, 4, 'https://huggingface.co/moonshotai/Kimi-K2-Thinking/resolve/main/LICENSE', '2026-11-28 06:00:00+00', '2026-11-28 06:00:00+00', true);
INSERT INTO public.observation VALUES (10, 3, 'weights_available', '{"repo":"moonshotai/Kimi-K2-Thinking"}', '{"approx":false,"extra":{"created_at":"2025-11-04T08:25:31.000Z"},"high":null,"kind":"boolean","low":null,"relation":null,"unit":null,"value":true}', '[(''approx'', False), (''high'', None), (''kind'', ''boolean''), (''low'', None), (''relation'', None), (''unit'', None), (''value'', True)]', 1, 5, 'https://huggingface.co/api/models?author=moonshotai&sort=createdAt&direction=-1&limit=100', '2026-11-28 06:00:00+00', '2026-11-28 06:00:00+00', true);
INSERT INTO public.observation VALUES (11, 1, 'price_input_usd_per_mtok', '{"provider":"moonshot"}', '{"approx":false,"extra":{"per_token":"0.000002"},"high":2,"kind":"quantity","low":2,"relation":null,"unit":"usd_per_mtok","value":2}', '[(''approx'', False), (''high'', 2), (''kind'', ''quantity''), (''low'', 2), (''relation'', None), (''unit'', ''usd_per_mtok''), (''value'', 2)]', 4, 6, 'https://raw.githubusercontent.com/BerriAI/litellm/main/model_prices_and_context_window.json', '2026-11-28 06:00:00+00', '2026-11-28 06:00:00+00', true);
INSERT INTO public.observation VALUES (12, 1, 'price_output_usd_per_mtok', '{"provider":"moonshot"}', '{"approx":false,"extra":{"per_token":"0.00001"},"high":10,"kind":"quantity","low":10,"relation":null,"unit":"usd_per_mtok","value":10}', '[(''approx'', False), (''high'', 10), (''kind'', ''quantity''), (''low'', 10), (''relation'', None), (''unit'', ''usd_per_mtok''), (''value'', 10)]', 4, 6, 'https://raw.githubusercontent.com/BerriAI/litellm/main/model_prices_and_context_window.json', '2026-11-28 06:00:00+00', '2026-11-28 06:00:00+00', true);
INSERT INTO public.observation VALUES (13, 1, 'context_window', '{"provider":"moonshot"}', '{"approx":false,"high":1048576,"kind":"quantity","low":1048576,"relation":null,"unit":"tokens","value":1048576}', '[(''approx'', False), (''high'', 1048576), (''kind'', ''quantity''), (''low'', 1048576), (''relation'', None), (''unit'', ''tokens''), (''value'', 1048576)]', 4, 6, 'https://raw.githubusercontent.com/BerriAI/litellm/main/model_prices_and_context_window.json', '2026-11-28 06:00:00+00', '2026-11-28 06:00:00+00', true);
INSERT INTO public.observation VALUES (14, 1, 'price_input_usd_per_mtok', '{"provider":"moonshot","variant":"Highspeed"}', '{"approx":false,"extra":{"per_token":"0.000004"},"high":4,"kind":"quantity","low":4,"relation":null,"unit":"usd_per_mtok","value":4}', '[(''approx'', False), (''high'', 4), (''kind'', ''quantity''), (''low'', 4), (''relation'', None), (''unit'', ''usd_per_mtok''), (''value'', 4)]', 4, 6, 'https://raw.githubusercontent.com/BerriAI/litellm/main/model_prices_and_context_window.json', '2026-11-28 06:00:00+00', '2026-11-28 06:00:00+00', true);
INSERT INTO public.observation VALUES (15, 1, 'price_output_usd_per_mtok', '{"provider":"moonshot","variant":"Highspeed"}', '{"approx":false,"extra":{"per_token":"0.00002"},"high":20,"kind":"quantity","low":20,"relation":null,"unit":"usd_per_mtok","value":20}', '[(''approx'', False), (''high'', 20), (''kind'', ''quantity''), (''low'', 20), (''relation'', None), (''unit'', ''usd_per_mtok''), (''value'', 20)]', 4, 6, 'https://raw.githubusercontent.com/BerriAI/litellm/main/model_prices_and_context_window.json', '2026-11-28 06:00:00+00', '2026-11-28 06:00:00+00', true);
INSERT INTO public.observation VALUES (16, 1, 'context_window', '{"provider":"moonshot","variant":"Highspeed"}', '{"approx":false,"high":1048576,"kind":"quantity","low":1048576,"relation":null,"unit":"tokens","value":1048576}', '[(''approx'', False), (''high'', 1048576), (''kind'', ''quantity''), (''low'', 1048576), (''relation'', None), (''unit'', ''tokens''), (''value'', 1048576)]', 4, 6, 'https://raw.githubusercontent.com/BerriAI/litellm/main/model_prices_and_context_window.json', '2026-11-28 06:00:00+00', '2026-11-28 06:00:00+00', true);
INSERT INTO public.observation VALUES (17, 2, 'price_input_usd_per_mtok', '{"provider":"moonshot"}', '{"approx":false,"extra":{"per_token":"0.000003"},"high":3,"kind":"quantity","low":3,"relation":null,"unit":"usd_per_mtok","value":3}', '[(''approx'', False), (''high'', 3), (''kind'', ''quantity''), (''low'', 3), (''relation'', None), (''unit'', ''usd_per_mtok''), (''value'', 3)]', 4, 6, 'https://raw.githubusercontent.com/BerriAI/litellm/main/model_prices_and_context_window.json', '2026-11-28 06:00:00+00', '2026-11-28 06:00:00+00', true);
INSERT INTO public.observation VALUES (18, 2, 'price_output_usd_per_mtok', '{"provider":"moonshot"}', '{"approx":false,"extra":{"per_token":"0.000015"},"high":15,"kind":"quantity","low":15,"relation":null,"unit":"usd_per_mtok","value":15}', '[(''approx'', False), (''high'', 15), (''kind'', ''quantity''), (''low'', 15), (''relation'', None), (''unit'', ''usd_per_mtok''), (''value'', 15)]', 4, 6, 'https://raw.githubusercontent.com/BerriAI/litellm/main/model_prices_and_context_window.json', '2026-11-28 06:00:00+00', '2026-11-28 06:00:00+00', true);
INSERT INTO public.observation VALUES (19, 2, 'context_window', '{"provider":"moonshot"}', '{"approx":false,"high":1048576,"kind":"quantity","low":1048576,"relation":null,"unit":"tokens","value":1048576}', '[(''approx'', False), (''high'', 1048576), (''kind'', ''quantity''), (''low'', 1048576), (''relation'', None), (''unit'', ''tokens''), (''value'', 1048576)]', 4, 6, 'https://raw.githubusercontent.com/BerriAI/litellm/main/model_prices_and_context_window.json', '2026-11-28 06:00:00+00', '2026-11-28 06:00:00+00', true);
INSERT INTO public.observation VALUES (20, 3, 'price_input_usd_per_mtok', '{}', '{"approx":false,"extra":{"per_token":"0.0000006"},"high":0.6,"kind":"quantity","low":0.6,"relation":null,"unit":"usd_per_mtok","value":0.6}', '[(''approx'', False), (''high'', 0.6), (''kind'', ''quantity''), (''low'', 0.6), (''relation'', None), (''unit'', ''usd_per_mtok''), (''value'', 0.6)]', 3, 7, 'https://openrouter.ai/api/v1/models', '2026-11-28 06:00:00+00', '2026-11-28 06:00:00+00', true);
INSERT INTO public.observation VALUES (21, 3, 'price_output_usd_per_mtok', '{}', '{"approx":false,"extra":{"per_token":"0.0000025"},"high":2.5,"kind":"quantity","low":2.5,"relation":null,"unit":"usd_per_mtok","value":2.5}', '[(''approx'', False), (''high'', 2.5), (''kind'', ''quantity''), (''low'', 2.5), (''relation'', None), (''unit'', ''usd_per_mtok''), (''value'', 2.5)]', 3, 7, 'https://openrouter.ai/api/v1/models', '2026-11-28 06:00:00+00', '2026-11-28 06:00:00+00', true);
INSERT INTO public.observation VALUES (22, 3, 'context_window', '{}', '{"approx":false,"high":262144,"kind":"quantity","low":262144,"relation":null,"unit":"tokens","value":262144}', '[(''approx'', False), (''high'', 262144), (''kind'', ''quantity''), (''low'', 262144), (''relation'', None), (''unit'', ''tokens''), (''value'', 262144)]', 3, 7, 'https://openrouter.ai/api/v1/models', '2026-11-28 06:00:00+00', '2026-11-28 06:00:00+00', true);


--
-- Data for Name: schedulerlock; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: schedulestate; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.schedulestate VALUES ('watch:hf-moonshotai', NULL, NULL, NULL, 'ok', NULL);


--
-- Data for Name: schemaversion; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.schemaversion VALUES (1, 'initial schema', '2026-12-01 14:31:22+00');
INSERT INTO public.schemaversion VALUES (2, 'scheduler lock and schedule state tables', '2026-12-01 14:31:22+00');
INSERT INTO public.schemaversion VALUES (3, 'claim origin column', '2026-12-01 14:31:22+00');


--
-- Data for Name: snapshot; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.snapshot VALUES (1, 2, 'https://huggingface.co/api/models/moonshotai/Kimi-K2-Thinking', 200, '{"content-length":"830","content-type":"application/json; charset=utf-8","etag":"W/\"4fa089c5b945dab6c95e2c85d0f\""}', '2026-11-28 06:00:00+00', '9f56f85edf0ec66c3bb33511180d1760dbb5a6b6070fe117ca6395ef50916de1', 830);
INSERT INTO public.snapshot VALUES (2, 2, 'https://huggingface.co/moonshotai/Kimi-K2-Thinking/resolve/main/config.json', 200, '{"content-length":"838","content-type":"text/plain; charset=utf-8","etag":"W/\"c059560d60c5dbd98efc35b2d0a\""}', '2026-11-28 06:00:00+00', '67fb4fa6aeeb6c2c45d3e6fb2f9d6d11d31613956e17435c677d778e02b47e0b', 838);
INSERT INTO public.snapshot VALUES (3, 2, 'https://huggingface.co/moonshotai/Kimi-K2-Thinking/resolve/main/model.safetensors.index.json', 200, '{"content-length":"74","content-type":"text/plain; charset=utf-8","etag":"W/\"221fb1002dad86ef47a3d7c86a1\""}', '2026-11-28 06:00:00+00', '7dd0a07be4f0ed0486a4cf39d6b3f154845b275ca2df9b6c0a76af53f53f5c03', 74);
INSERT INTO public.snapshot VALUES (4, 2, 'https://huggingface.co/moonshotai/Kimi-K2-Thinking/resolve/main/LICENSE', 200, '{"content-length":"1455","content-type":"text/plain; charset=utf-8","etag":"W/\"229e5576bea95965316c581f453\""}', '2026-11-28 06:00:00+00', '5b6b2346b34a96b606472918f9275b0775b100edb0fa8d3f7419307384c7f603', 1455);
INSERT INTO public.snapshot VALUES (5, 1, 'https://huggingface.co/api/models?author=moonshotai&sort=createdAt&direction=-1&limit=100', 200, '{"content-length":"470","content-type":"application/json; charset=utf-8","etag":"W/\"56a6a989f23338b852d3772477f\""}', '2026-11-28 06:00:00+00', 'bacabc073326706f766a8f6e9b9407342570ae7786f46ee5ad78109c667d0df1', 470);
INSERT INTO public.snapshot VALUES (6, 4, 'https://raw.githubusercontent.com/BerriAI/litellm/main/model_prices_and_context_window.json', 200, '{"content-length":"12141","content-type":"text/plain; charset=utf-8"}', '2026-11-28 06:00:00+00', '2f5509ba430b91225c7dc81e72efab06b97a1a5b0b357846052e6c5ceaf0c836', 12141);
INSERT INTO public.snapshot VALUES (7, 3, 'https://openrouter.ai/api/v1/models', 200, '{"content-length":"20065","content-type":"application/json"}', '2026-11-28 06:00:00+00', 'c587c21b0ba18a82db39286379021c394896b8bc82f2ddee76bc5a874bf3073e', 20065);


--
-- Data for Name: source; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.source VALUES (1, 'kimi-k2-thinking-card', 'https://huggingface.co/moonshotai/Kimi-K2-Thinking', 'Kimi K2 Thinking model card', 'Moonshot AI', '2025-11-06', 'day', 'en', 'vendor');
INSERT INTO public.source VALUES (2, 'maquinaweb-k31-cerebras', NULL, 'Kimi K3.1 Pro: 104B active, a 33% cheaper API and Cerebras'' 2,000 tokens/s', 'Máquina Web', '2026-10-27', 'estimated', 'pt-BR', 'press');
INSERT INTO public.source VALUES (3, 'opinion-k31-vs-fable', NULL, 'Kimi 3.1 Pro: 2.8T open weights against Fable 5.1', NULL, '2026-10-27', 'estimated', 'pt-BR', 'press');
INSERT INTO public.source VALUES (4, 'report-k31-launch', NULL, 'Kimi K3.1 Pro launch: architecture, pricing and open-weights date', NULL, '2026-10-27', 'estimated', 'pt-BR', 'press');


--
-- Data for Name: subject; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.subject VALUES (1, 'kimi-k3.1-pro', 'Kimi K3.1 Pro', 'Moonshot AI', 'kimi', 'moonshotai', NULL);
INSERT INTO public.subject VALUES (2, 'kimi-k3', 'Kimi K3', 'Moonshot AI', 'kimi', 'moonshotai', NULL);
INSERT INTO public.subject VALUES (3, 'kimi-k2-thinking', 'Kimi K2 Thinking', 'Moonshot AI', 'kimi', 'moonshotai', NULL);


--
-- Data for Name: subjectalias; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.subjectalias VALUES (1, 1, 'name', 'Kimi K3.1 Pro');
INSERT INTO public.subjectalias VALUES (2, 1, 'name', 'Kimi 3.1 Pro');
INSERT INTO public.subjectalias VALUES (3, 1, 'name', 'K3.1 Pro');
INSERT INTO public.subjectalias VALUES (4, 1, 'litellm', 'moonshot/kimi-k3.1-pro');
INSERT INTO public.subjectalias VALUES (5, 1, 'litellm', 'moonshot/kimi-k3.1-pro-highspeed');
INSERT INTO public.subjectalias VALUES (6, 2, 'name', 'Kimi K3');
INSERT INTO public.subjectalias VALUES (7, 2, 'name', 'K3');
INSERT INTO public.subjectalias VALUES (8, 2, 'litellm', 'moonshot/kimi-k3');
INSERT INTO public.subjectalias VALUES (9, 3, 'name', 'Kimi K2 Thinking');
INSERT INTO public.subjectalias VALUES (10, 3, 'name', 'Kimi-K2-Thinking');
INSERT INTO public.subjectalias VALUES (11, 3, 'name', 'K2 Thinking');
INSERT INTO public.subjectalias VALUES (12, 3, 'huggingface', 'moonshotai/Kimi-K2-Thinking');
INSERT INTO public.subjectalias VALUES (13, 3, 'openrouter', 'moonshotai/kimi-k2-thinking');
INSERT INTO public.subjectalias VALUES (14, 3, 'lmarena', 'kimi-k2-thinking-turbo');


--
-- Data for Name: subjectvariant; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.subjectvariant VALUES (1, 1, 'Standard');
INSERT INTO public.subjectvariant VALUES (2, 1, 'Highspeed');


--
-- Data for Name: verdict; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.verdict VALUES (1, 1, 'confirmed', 'observed 1.03T (1,026,880,447,728) params (observation #6) is within the claim''s 1T params (500B–1.5T params); the Hub count is derived from packed quantized weights', '[6,5]', '2026-11-28 06:00:00+00', '2026-11-28 06:00:00+00');
INSERT INTO public.verdict VALUES (2, 2, 'unverified', 'no observation of active parameters for kimi-k2-thinking', '[]', NULL, '2026-11-28 06:00:00+00');
INSERT INTO public.verdict VALUES (3, 3, 'confirmed', 'observed 256K (262,144) tokens (observation #7) is within the claim''s 256K (262,144) tokens', '[7,22]', '2026-11-28 06:00:00+00', '2026-11-28 06:00:00+00');
INSERT INTO public.verdict VALUES (4, 4, 'confirmed', 'observed 4 bits (observation #8) is within the claim''s 4 bits (3.5–4.5 bits)', '[8]', '2026-11-28 06:00:00+00', '2026-11-28 06:00:00+00');
INSERT INTO public.verdict VALUES (5, 5, 'confirmed', 'observed modified-mit (observation #2)', '[2]', '2026-11-28 06:00:00+00', '2026-11-28 06:00:00+00');
INSERT INTO public.verdict VALUES (6, 6, 'unverified', 'no observation of release date for kimi-k2-thinking', '[]', NULL, '2026-11-28 06:00:00+00');
INSERT INTO public.verdict VALUES (7, 7, 'unverified', 'weights already listed at the first hub check 2026-11-28 06:00 UTC (observation #1); whether they landed by 2025-11-06 cannot be told from it', '[1]', '2026-11-28 06:00:00+00', '2026-11-28 06:00:00+00');
INSERT INTO public.verdict VALUES (8, 8, 'unverified', 'no observation of release date for kimi-k3.1-pro', '[]', NULL, '2026-11-28 06:00:00+00');
INSERT INTO public.verdict VALUES (9, 9, 'confirmed', 'observed output price $10.00 per 1M tokens (observation #12) vs $15.00 per 1M tokens for kimi-k3 (observation #18): −33.3%, claim about −33% (−36.3% to −29.7%)', '[12,18]', NULL, '2026-11-28 06:00:00+00');
INSERT INTO public.verdict VALUES (10, 10, 'unverified', 'no observation of total parameters for kimi-k3.1-pro', '[]', NULL, '2026-11-28 06:00:00+00');
INSERT INTO public.verdict VALUES (11, 11, 'unverified', 'no observation of active parameters for kimi-k3.1-pro', '[]', NULL, '2026-11-28 06:00:00+00');
INSERT INTO public.verdict VALUES (12, 12, 'confirmed', 'observed 1M (1,048,576) tokens (observation #13) is within the claim''s 1M tokens (500K–1.5M tokens)', '[13]', '2026-11-28 06:00:00+00', '2026-11-28 06:00:00+00');
INSERT INTO public.verdict VALUES (13, 13, 'unverified', 'no observation of benchmark score for kimi-k3.1-pro', '[]', NULL, '2026-11-28 06:00:00+00');
INSERT INTO public.verdict VALUES (14, 14, 'unverified', 'no observation of leaderboard rank for kimi-k3.1-pro', '[]', NULL, '2026-11-28 06:00:00+00');
INSERT INTO public.verdict VALUES (15, 15, 'disputed', 'no observation; sources disagree: the same score reported for two versions of a benchmark: 65.7% reported for Terminal-Bench 4.0 by Moonshot AI via Máquina Web and for Terminal-Bench 3.0 by Moonshot AI via “Kimi K3.1 Pro launch: architecture, pricing…”: one of the versions is wrong', '[]', NULL, '2026-11-28 06:00:00+00');
INSERT INTO public.verdict VALUES (16, 16, 'confirmed', 'observed $10.00 per 1M tokens (observation #12) is within the claim''s $10.00 per 1M tokens ($9.50–$10.50 per 1M tokens)', '[12]', '2026-11-28 06:00:00+00', '2026-11-28 06:00:00+00');
INSERT INTO public.verdict VALUES (17, 17, 'overdue', 'overdue by 25 days as of 2026-11-28 06:00 UTC: promised before 2026-11-04 (deadline 2026-11-03), no weights seen on the hub; sources disagree: the same date with relations that exclude each other, e.g. “before” vs “on”', '[]', '2026-11-28 06:00:00+00', '2026-11-28 06:00:00+00');
INSERT INTO public.verdict VALUES (18, 18, 'unverified', 'no observation of hardware units for kimi-k3', '[]', NULL, '2026-11-28 06:00:00+00');
INSERT INTO public.verdict VALUES (19, 19, 'unverified', 'no throughput measurement with stated conditions (provider, batch, context)', '[]', NULL, '2026-11-28 06:00:00+00');
INSERT INTO public.verdict VALUES (20, 20, 'unverified', 'no observation of weight precision for kimi-k3', '[]', NULL, '2026-11-28 06:00:00+00');
INSERT INTO public.verdict VALUES (21, 21, 'unverified', 'no observation of total parameters for kimi-k3', '[]', NULL, '2026-11-28 06:00:00+00');
INSERT INTO public.verdict VALUES (22, 22, 'unverified', 'no observation of total parameters for kimi-k3.1-pro', '[]', NULL, '2026-11-28 06:00:00+00');
INSERT INTO public.verdict VALUES (23, 23, 'unverified', 'no observation of active parameters for kimi-k3.1-pro', '[]', NULL, '2026-11-28 06:00:00+00');
INSERT INTO public.verdict VALUES (24, 24, 'confirmed', 'observed 1M (1,048,576) tokens (observation #13) is within the claim''s 1M tokens (500K–1.5M tokens)', '[13]', '2026-11-28 06:00:00+00', '2026-11-28 06:00:00+00');
INSERT INTO public.verdict VALUES (25, 25, 'unverified', 'no observation of leaderboard rank for kimi-k3.1-pro', '[]', NULL, '2026-11-28 06:00:00+00');
INSERT INTO public.verdict VALUES (26, 26, 'unverified', 'no observation of benchmark score for kimi-k3.1-pro', '[]', NULL, '2026-11-28 06:00:00+00');
INSERT INTO public.verdict VALUES (27, 27, 'unverified', 'no observation of leaderboard rank for kimi-k3.1-pro', '[]', NULL, '2026-11-28 06:00:00+00');
INSERT INTO public.verdict VALUES (28, 28, 'unverified', 'no observation of benchmark score for kimi-k3.1-pro', '[]', NULL, '2026-11-28 06:00:00+00');
INSERT INTO public.verdict VALUES (29, 29, 'unverified', 'no observation of leaderboard rank for kimi-k3', '[]', NULL, '2026-11-28 06:00:00+00');
INSERT INTO public.verdict VALUES (30, 30, 'unverified', 'no observation of benchmark score for kimi-k3.1-pro', '[]', NULL, '2026-11-28 06:00:00+00');
INSERT INTO public.verdict VALUES (31, 31, 'unverified', 'no observation of speed-up factor for kimi-k3.1-pro', '[]', NULL, '2026-11-28 06:00:00+00');
INSERT INTO public.verdict VALUES (32, 32, 'confirmed', 'Highspeed costs 2.00 × Standard (output: $20.00 vs $10.00 per 1M tokens, observations #15 and #12); claimed about 2 times (1–3 times)', '[15,12]', '2026-11-28 06:00:00+00', '2026-11-28 06:00:00+00');
INSERT INTO public.verdict VALUES (33, 33, 'overdue', 'overdue by 24 days as of 2026-11-28 06:00 UTC: promised on 2026-11-04 (deadline 2026-11-04), no weights seen on the hub; sources disagree: the same date with relations that exclude each other, e.g. “before” vs “on”', '[]', '2026-11-28 06:00:00+00', '2026-11-28 06:00:00+00');
INSERT INTO public.verdict VALUES (34, 34, 'unverified', 'no observation of total parameters for kimi-k3.1-pro', '[]', NULL, '2026-11-28 06:00:00+00');
INSERT INTO public.verdict VALUES (35, 35, 'unverified', 'no observation of active parameters for kimi-k3.1-pro', '[]', NULL, '2026-11-28 06:00:00+00');
INSERT INTO public.verdict VALUES (36, 36, 'confirmed', 'observed 1M (1,048,576) tokens (observation #13) is within the claim''s 1M tokens (500K–1.5M tokens)', '[13]', '2026-11-28 06:00:00+00', '2026-11-28 06:00:00+00');
INSERT INTO public.verdict VALUES (37, 37, 'disputed', 'no observation; sources disagree: the same score reported for two versions of a benchmark: 65.7% reported for Terminal-Bench 4.0 by Moonshot AI via Máquina Web and for Terminal-Bench 3.0 by Moonshot AI via “Kimi K3.1 Pro launch: architecture, pricing…”: one of the versions is wrong', '[]', NULL, '2026-11-28 06:00:00+00');
INSERT INTO public.verdict VALUES (38, 38, 'confirmed', 'observed $2.00 per 1M tokens (observation #11) is within the claim''s $2.00 per 1M tokens ($1.995–$2.005 per 1M tokens)', '[11]', '2026-11-28 06:00:00+00', '2026-11-28 06:00:00+00');
INSERT INTO public.verdict VALUES (39, 39, 'confirmed', 'observed $10.00 per 1M tokens (observation #12) is within the claim''s $10.00 per 1M tokens ($9.995–$10.005 per 1M tokens)', '[12]', '2026-11-28 06:00:00+00', '2026-11-28 06:00:00+00');
INSERT INTO public.verdict VALUES (40, 40, 'overdue', 'overdue by 24 days as of 2026-11-28 06:00 UTC: promised on 2026-11-04 (deadline 2026-11-04), no weights seen on the hub; sources disagree: the same date with relations that exclude each other, e.g. “before” vs “on”', '[]', '2026-11-28 06:00:00+00', '2026-11-28 06:00:00+00');


--
-- Data for Name: watch; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.watch VALUES (2, 'hf-model-kimi-k2-thinking', 'huggingface_model', 'https://huggingface.co/api/models/moonshotai/Kimi-K2-Thinking', '{"files":["config.json","model.safetensors.index.json","LICENSE"],"repo":"moonshotai/Kimi-K2-Thinking","robots":false}', 360, 'ok', 0, '2026-11-28 06:00:00+00', '2026-11-28 06:00:00+00', NULL, NULL, NULL, 'W/"4fa089c5b945dab6c95e2c85d0f"', NULL);
INSERT INTO public.watch VALUES (1, 'hf-org-moonshotai', 'huggingface_org', 'https://huggingface.co/api/models?author=moonshotai&sort=createdAt&direction=-1&limit=100', '{"org":"moonshotai","robots":false}', 60, 'ok', 0, '2026-11-28 06:00:00+00', '2026-11-28 06:00:00+00', NULL, NULL, NULL, 'W/"56a6a989f23338b852d3772477f"', NULL);
INSERT INTO public.watch VALUES (4, 'litellm-prices', 'litellm_prices', 'https://raw.githubusercontent.com/BerriAI/litellm/main/model_prices_and_context_window.json', '{"robots":false,"variants":{"moonshot/kimi-k3.1-pro-highspeed":"Highspeed"}}', 720, 'ok', 0, '2026-11-28 06:00:00+00', '2026-11-28 06:00:00+00', NULL, NULL, NULL, NULL, NULL);
INSERT INTO public.watch VALUES (3, 'openrouter-models', 'openrouter_models', 'https://openrouter.ai/api/v1/models', '{"robots":false}', 360, 'ok', 0, '2026-11-28 06:00:00+00', '2026-11-28 06:00:00+00', NULL, NULL, NULL, NULL, NULL);


--
-- Name: claim_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.claim_id_seq', 40, true);


--
-- Name: delivery_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.delivery_id_seq', 1, true);


--
-- Name: discrepancy_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.discrepancy_id_seq', 3, true);


--
-- Name: event_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.event_id_seq', 8, true);


--
-- Name: observation_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.observation_id_seq', 22, true);


--
-- Name: schemaversion_version_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.schemaversion_version_seq', 1, false);


--
-- Name: snapshot_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.snapshot_id_seq', 7, true);


--
-- Name: source_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.source_id_seq', 4, true);


--
-- Name: subject_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.subject_id_seq', 3, true);


--
-- Name: subjectalias_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.subjectalias_id_seq', 14, true);


--
-- Name: subjectvariant_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.subjectvariant_id_seq', 2, true);


--
-- Name: verdict_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.verdict_id_seq', 40, true);


--
-- Name: watch_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.watch_id_seq', 4, true);


--
-- Name: claim claim_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.claim
    ADD CONSTRAINT claim_pkey PRIMARY KEY (id);


--
-- Name: delivery delivery_event_id_subscription_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.delivery
    ADD CONSTRAINT delivery_event_id_subscription_key UNIQUE (event_id, subscription);


--
-- Name: delivery delivery_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.delivery
    ADD CONSTRAINT delivery_pkey PRIMARY KEY (id);


--
-- Name: discrepancy discrepancy_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.discrepancy
    ADD CONSTRAINT discrepancy_pkey PRIMARY KEY (id);


--
-- Name: event event_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.event
    ADD CONSTRAINT event_pkey PRIMARY KEY (id);


--
-- Name: observation observation_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.observation
    ADD CONSTRAINT observation_pkey PRIMARY KEY (id);


--
-- Name: observation observation_subject_id_attribute_qualifiers_json_value_key__key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.observation
    ADD CONSTRAINT observation_subject_id_attribute_qualifiers_json_value_key__key UNIQUE (subject_id, attribute, qualifiers_json, value_key, watch_id);


--
-- Name: schedulerlock schedulerlock_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.schedulerlock
    ADD CONSTRAINT schedulerlock_pkey PRIMARY KEY (name);


--
-- Name: schedulestate schedulestate_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.schedulestate
    ADD CONSTRAINT schedulestate_pkey PRIMARY KEY (job_id);


--
-- Name: schemaversion schemaversion_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.schemaversion
    ADD CONSTRAINT schemaversion_pkey PRIMARY KEY (version);


--
-- Name: snapshot snapshot_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.snapshot
    ADD CONSTRAINT snapshot_pkey PRIMARY KEY (id);


--
-- Name: source source_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.source
    ADD CONSTRAINT source_pkey PRIMARY KEY (id);


--
-- Name: subject subject_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.subject
    ADD CONSTRAINT subject_pkey PRIMARY KEY (id);


--
-- Name: subjectalias subjectalias_namespace_alias_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.subjectalias
    ADD CONSTRAINT subjectalias_namespace_alias_key UNIQUE (namespace, alias);


--
-- Name: subjectalias subjectalias_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.subjectalias
    ADD CONSTRAINT subjectalias_pkey PRIMARY KEY (id);


--
-- Name: subjectvariant subjectvariant_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.subjectvariant
    ADD CONSTRAINT subjectvariant_pkey PRIMARY KEY (id);


--
-- Name: subjectvariant subjectvariant_subject_id_name_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.subjectvariant
    ADD CONSTRAINT subjectvariant_subject_id_name_key UNIQUE (subject_id, name);


--
-- Name: verdict verdict_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.verdict
    ADD CONSTRAINT verdict_pkey PRIMARY KEY (id);


--
-- Name: watch watch_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.watch
    ADD CONSTRAINT watch_pkey PRIMARY KEY (id);


--
-- Name: ix_claim_attribute; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_claim_attribute ON public.claim USING btree (attribute);


--
-- Name: ix_claim_key; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX ix_claim_key ON public.claim USING btree (key);


--
-- Name: ix_claim_source_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_claim_source_id ON public.claim USING btree (source_id);


--
-- Name: ix_claim_subject_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_claim_subject_id ON public.claim USING btree (subject_id);


--
-- Name: ix_delivery_event_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_delivery_event_id ON public.delivery USING btree (event_id);


--
-- Name: ix_delivery_subscription; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_delivery_subscription ON public.delivery USING btree (subscription);


--
-- Name: ix_discrepancy_key; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX ix_discrepancy_key ON public.discrepancy USING btree (key);


--
-- Name: ix_discrepancy_subject_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_discrepancy_subject_id ON public.discrepancy USING btree (subject_id);


--
-- Name: ix_event_key; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX ix_event_key ON public.event USING btree (key);


--
-- Name: ix_event_kind; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_event_kind ON public.event USING btree (kind);


--
-- Name: ix_event_subject_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_event_subject_id ON public.event USING btree (subject_id);


--
-- Name: ix_observation_attribute; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_observation_attribute ON public.observation USING btree (attribute);


--
-- Name: ix_observation_subject_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_observation_subject_id ON public.observation USING btree (subject_id);


--
-- Name: ix_observation_watch_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_observation_watch_id ON public.observation USING btree (watch_id);


--
-- Name: ix_snapshot_sha256; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_snapshot_sha256 ON public.snapshot USING btree (sha256);


--
-- Name: ix_snapshot_watch_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_snapshot_watch_id ON public.snapshot USING btree (watch_id);


--
-- Name: ix_source_key; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX ix_source_key ON public.source USING btree (key);


--
-- Name: ix_subject_slug; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX ix_subject_slug ON public.subject USING btree (slug);


--
-- Name: ix_subjectalias_subject_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_subjectalias_subject_id ON public.subjectalias USING btree (subject_id);


--
-- Name: ix_subjectvariant_subject_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_subjectvariant_subject_id ON public.subjectvariant USING btree (subject_id);


--
-- Name: ix_verdict_claim_id; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX ix_verdict_claim_id ON public.verdict USING btree (claim_id);


--
-- Name: ix_watch_name; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX ix_watch_name ON public.watch USING btree (name);


--
-- Name: claim claim_source_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.claim
    ADD CONSTRAINT claim_source_id_fkey FOREIGN KEY (source_id) REFERENCES public.source(id);


--
-- Name: claim claim_subject_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.claim
    ADD CONSTRAINT claim_subject_id_fkey FOREIGN KEY (subject_id) REFERENCES public.subject(id);


--
-- Name: delivery delivery_event_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.delivery
    ADD CONSTRAINT delivery_event_id_fkey FOREIGN KEY (event_id) REFERENCES public.event(id);


--
-- Name: discrepancy discrepancy_subject_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.discrepancy
    ADD CONSTRAINT discrepancy_subject_id_fkey FOREIGN KEY (subject_id) REFERENCES public.subject(id);


--
-- Name: event event_subject_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.event
    ADD CONSTRAINT event_subject_id_fkey FOREIGN KEY (subject_id) REFERENCES public.subject(id);


--
-- Name: event event_watch_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.event
    ADD CONSTRAINT event_watch_id_fkey FOREIGN KEY (watch_id) REFERENCES public.watch(id);


--
-- Name: observation observation_snapshot_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.observation
    ADD CONSTRAINT observation_snapshot_id_fkey FOREIGN KEY (snapshot_id) REFERENCES public.snapshot(id);


--
-- Name: observation observation_subject_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.observation
    ADD CONSTRAINT observation_subject_id_fkey FOREIGN KEY (subject_id) REFERENCES public.subject(id);


--
-- Name: observation observation_watch_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.observation
    ADD CONSTRAINT observation_watch_id_fkey FOREIGN KEY (watch_id) REFERENCES public.watch(id);


--
-- Name: snapshot snapshot_watch_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.snapshot
    ADD CONSTRAINT snapshot_watch_id_fkey FOREIGN KEY (watch_id) REFERENCES public.watch(id);


--
-- Name: subjectalias subjectalias_subject_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.subjectalias
    ADD CONSTRAINT subjectalias_subject_id_fkey FOREIGN KEY (subject_id) REFERENCES public.subject(id);


--
-- Name: subjectvariant subjectvariant_subject_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.subjectvariant
    ADD CONSTRAINT subjectvariant_subject_id_fkey FOREIGN KEY (subject_id) REFERENCES public.subject(id);


--
-- Name: verdict verdict_claim_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.verdict
    ADD CONSTRAINT verdict_claim_id_fkey FOREIGN KEY (claim_id) REFERENCES public.claim(id);


--
-- PostgreSQL database dump complete
--


